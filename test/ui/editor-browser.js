'use strict';
/*
 * Debian's Chromium through playwright-core (no browser download), logged in to n8n with the
 * REST login's cookie; and the screenshots the README shows.
 */

const fs = require('fs');
const path = require('path');

const { check } = require('./session');

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/**
 * Chromium with n8n's auth cookie, requests to anything but n8n aborted (banners, templates,
 * icons fail fast), CSS transitions off (a list still fading in or out is never clicked).
 * Returns { browser, ctx, page, pageErrors }.
 */
async function launch({ chromiumPath, baseUrl, cookie, verbose }) {
	check(fs.existsSync(chromiumPath), `Chromium not found at ${chromiumPath}: install Debian's package (apt-get install -y --no-install-recommends chromium) or set CHROMIUM_PATH`);
	const { chromium, selectors } = require('playwright-core');
	selectors.setTestIdAttribute('data-test-id');
	const browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS });
	const ctx = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
	const origin = new URL(baseUrl).origin;
	await ctx.addCookies([{ name: 'n8n-auth', value: cookie, url: baseUrl, httpOnly: true, sameSite: 'Lax' }]);
	await ctx.route('**/*', (route) => {
		const url = route.request().url();
		if (url.startsWith(origin) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
		return route.abort();
	});
	await ctx.addInitScript(() => {
		const add = () => {
			const style = document.createElement('style');
			style.textContent = '*, *::before, *::after { transition: none !important; animation: none !important; }';
			document.head.appendChild(style);
		};
		if (document.head) add();
		else document.addEventListener('DOMContentLoaded', add);
	});
	ctx.setDefaultTimeout(15000);
	const pageErrors = [];
	ctx.on('page', (p) => {
		p.on('pageerror', (err) => pageErrors.push({ at: Date.now(), message: err.message, url: p.url() }));
		if (verbose) p.on('console', (m) => m.type() === 'error' && console.log(`      [console] ${m.text().slice(0, 200)}`));
	});
	const page = await ctx.newPage();
	return { browser, ctx, page, pageErrors };
}

/** Screenshot a locator (cropped to it) or a page to file; blur: no focused field in the picture. */
async function screenshot(target, file, { blur = true } = {}) {
	fs.mkdirSync(path.dirname(file), { recursive: true });
	const page = typeof target.page === 'function' ? target.page() : target;
	if (blur) await page.evaluate(() => document.activeElement && document.activeElement.blur());
	if (target !== page) await page.mouse.move(0, 0); // no hover toolbar (Fixed / Expression) on the element
	await target.screenshot({ path: file, animations: 'disabled' });
	return file;
}

/**
 * Screenshot the node panel's parameters from the one named `from` down to the lowest of the ones
 * named in `to`, across the panel's width: the part of a long form that a model changes. The page
 * is made tall enough first that the whole range is on screen.
 */
async function screenshotParameters(page, file, from, to) {
	await page.setViewportSize({ width: 1440, height: 2400 });
	const item = (name) => page.getByTestId('node-parameters').locator('[data-test-id="parameter-item"]').filter({ has: page.locator(`[data-parameter-path="parameters.${name}"], label[for="${name}"]`) }).first();
	const first = await item(from).boundingBox();
	const boxes = await Promise.all([].concat(to).map((name) => item(name).boundingBox()));
	const last = boxes.reduce((a, b) => (a && b && b.y + b.height > a.y + a.height ? b : a));
	const panel = await page.getByTestId('ndv').locator('.node-settings').boundingBox();
	check(first && last && panel && boxes.every(Boolean), `the parameters ${from} … ${[].concat(to).join(', ')} are not all on screen`);
	fs.mkdirSync(path.dirname(file), { recursive: true });
	await page.evaluate(() => document.activeElement && document.activeElement.blur());
	await page.mouse.move(0, 0);
	const y = first.y - 8;
	await page.screenshot({ path: file, animations: 'disabled', clip: { x: panel.x, y, width: panel.width, height: last.y + last.height + 8 - y } });
	return file;
}

module.exports = { launch, screenshot, screenshotParameters };
