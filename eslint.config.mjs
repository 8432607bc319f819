// The rules n8n's community-package scanner applies, plus the older n8n-nodes-base sets.
import { configs as communityConfigs } from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import tseslint from 'typescript-eslint';

const nodesBase = { 'n8n-nodes-base': n8nNodesBase };

export default [
	{ ignores: ['dist/**', 'node_modules/**', 'test/**', 'bench/**', 'examples/**', 'docs/**', '.e2e/**'] },
	{
		files: ['**/*.ts', 'package.json'],
		languageOptions: {
			parser: tseslint.parser,
			parserOptions: { extraFileExtensions: ['.json'] },
		},
		...communityConfigs.recommended,
	},
	{ files: ['package.json'], plugins: nodesBase, rules: n8nNodesBase.configs.community.rules },
	{ files: ['credentials/**/*.ts'], plugins: nodesBase, rules: n8nNodesBase.configs.credentials.rules },
	{
		files: ['nodes/**/*.ts'],
		plugins: nodesBase,
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			// Our operation files export their own `description` arrays; the rule assumes one file per node.
			'n8n-nodes-base/node-filename-against-convention': 'off',
			// The old set wants the string 'main'; n8n's current typings and nodes use NodeConnectionTypes.Main.
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
		},
	},
];
