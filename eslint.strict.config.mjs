// The package's stricter gate, run by `npm run lint` after `n8n-node lint` (which reads
// eslint.config.mjs, the CLI's default config, untouched so strict mode and cloud-support accept it).
// These are the rule sets n8n's verification scanner (@n8n/scan-community-package, scanner.mjs
// buildScanConfig) lints a community package with, wired the same way, so `npm run lint` shows its
// errors first. Inline config is off as in the scanner: an eslint-disable comment would hide nothing
// there. docs/VERIFICATION.md says which gate checks what.
import { configs as communityConfigs } from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import tseslint from 'typescript-eslint';

export default [
	{ ignores: ['dist/**', 'node_modules/**', 'test/**', 'bench/**', 'examples/**', 'docs/**', '.e2e/**'] },
	{ linterOptions: { noInlineConfig: true } },
	{ files: ['**/*.ts', '**/*.js', '**/*.json'], ...communityConfigs.recommended },
	{ files: ['**/*.ts', '**/*.js', '**/*.json'], rules: { 'no-console': 'error' } },
	{ plugins: { 'n8n-nodes-base': n8nNodesBase } },
	{ files: ['package.json'], rules: n8nNodesBase.configs.community.rules },
	{
		files: ['**/credentials/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			// As in the scanner: not valid for community nodes ...
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
			// ... and the community plugin's credential-password-field rule is the accurate one.
			'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
		},
	},
	{
		files: ['**/nodes/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			// As in the scanner: inputs and outputs may be NodeConnectionTypes.Main instead of 'main' ...
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			// ... and a maxValue may be the gateway's own limit.
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
	{ files: ['**/*.json'], languageOptions: { parser: tseslint.parser } },
	{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } },
];
