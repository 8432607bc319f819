'use strict';
/*
 * An Image → Generate run in the editor (gpt-image-2, answered at once by the simulator) and its
 * output: the item with the downloaded image, shown in the output panel's binary view with the
 * picture previewed at the ratio asked for (the simulator draws a PNG at the requested size).
 */

const editor = require('../editor');
const { check } = require('../session');
const { chain } = require('./workflows');

const NODE = 'Generate an image';
const NAME = 'an executed Image → Generate shows the downloaded image in the output (binary preview)';

async function run(session, env) {
	await session.test(
		NAME,
		async () => {
			const parameters = {
				resource: 'image',
				operation: 'generate',
				modelId: { __rl: true, mode: 'id', value: 'gpt-image-2' },
				prompt: 'A lighthouse on a cliff at dawn, watercolor',
				size: '16:9',
				resolution: '1k',
				download: true,
			};
			const id = await env.createWorkflow(chain('Image preview (ui)', env.packageName, await env.credential(), [{ name: NODE, parameters }]));
			const before = env.sim.count('POST', '/v1/images/generations');
			const tab = await env.newTab();
			try {
				await editor.openWorkflow(tab, env.baseUrl, id);
				await editor.runWorkflow(tab);
				check(env.sim.count('POST', '/v1/images/generations') === before + 1, 'the simulator did not receive exactly one image submit from the run');
				await editor.openNode(tab, NODE);
				const count = await editor.outputItemCount(tab);
				check(count === 1, `the output panel says ${count} items, expected 1`);
				const file = await editor.showBinaryPreview(tab, 'data');
				check(/image\/png/.test(file.mimeType) || /\.png$/.test(file.fileName), `the binary "data" is not a PNG: ${JSON.stringify(file)}`);
				// The simulator draws the picture at the size asked for: 16:9 here.
				check(Math.abs(file.width / file.height - 16 / 9) < 0.02, `the previewed picture is ${file.width}x${file.height}, not 16:9`);
				await env.shot(editor.ndv(tab), 'image-generate-output-preview.png');
			} catch (e) {
				await env.session.capture('image preview', tab);
				throw e;
			} finally {
				await tab.close();
			}
		},
		[env.OPEN],
	);
}

module.exports = { run };
