#!/usr/bin/env node
'use strict';
// prepublishOnly: a version may reach npm only from the release workflow, with provenance.
// n8n verifies a community package only when its npm provenance names this public repository
// (docs/RELEASING.md); a version published from a laptop has none, and npm never lets the same
// version be published again. publishConfig.provenance in package.json makes npm itself refuse a
// publish it cannot attest, also where install-time scripts are off (.npmrc ignore-scripts).

const WORKFLOW = '.github/workflows/release.yml';

/** What is missing for a publish from the release workflow, in words; empty when nothing is. */
function refusals(env) {
	const missing = [];
	if (env.GITHUB_ACTIONS !== 'true') missing.push('this is not a GitHub Actions run (GITHUB_ACTIONS is not "true")');
	const ref = env.GITHUB_WORKFLOW_REF ?? '';
	if (!ref.includes(`/${WORKFLOW}@refs/tags/v`)) {
		missing.push(`the workflow is not ${WORKFLOW} run for a version tag (GITHUB_WORKFLOW_REF: ${ref || 'unset'})`);
	}
	if (env.RELEASE_MODE !== 'true') missing.push('RELEASE_MODE is not "true" (the release workflow sets it, as n8n-node release does)');
	if (env.npm_config_provenance !== 'true') missing.push('npm publish runs without --provenance');
	// Between releases package.json's version ends in -dev (a packed file then says it is no
	// release); a tag v0.1.0-dev would otherwise publish it.
	const version = env.npm_package_version ?? '';
	if (version.includes('-')) missing.push(`the version ${version} is a development version (the release commit sets X.Y.Z with npm version)`);
	return missing;
}

if (require.main === module) {
	const missing = refusals(process.env);
	if (missing.length > 0) {
		process.stderr.write(
			`Refusing to publish: ${missing.join('; ')}.\n` +
				'Versions are published by pushing a tag vX.Y.Z, which runs the release workflow ' +
				'(lint, build, tests, then npm publish with provenance). See docs/RELEASING.md.\n',
		);
		process.exit(1);
	}
	process.stdout.write('Publishing from the release workflow, with provenance.\n');
}

module.exports = { refusals };
