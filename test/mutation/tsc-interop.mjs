// @ts-check
/**
 * A Stryker ignorer (test/mutation/stryker.config.mjs): the line tsc writes at the top of every
 * CommonJS file it emits, `Object.defineProperty(exports, "__esModule", { value: true })`, is no
 * line of our sources, and no CommonJS caller reads the marker (n8n and the tests `require` the
 * files): its three mutants are equivalent, never killable, so they are not counted.
 */
import { PluginKind, declareValuePlugin } from '@stryker-mutator/api/plugin';

/** @param {any} path a Babel NodePath */
function isInteropMarker(path) {
	const node = path.node;
	if (node?.type !== 'CallExpression') return false;
	const { callee, arguments: args } = node;
	return (
		callee.type === 'MemberExpression' &&
		callee.object.type === 'Identifier' &&
		callee.object.name === 'Object' &&
		callee.property.type === 'Identifier' &&
		callee.property.name === 'defineProperty' &&
		args[0]?.type === 'Identifier' &&
		args[0].name === 'exports' &&
		args[1]?.type === 'StringLiteral' &&
		args[1].value === '__esModule'
	);
}

export const strykerPlugins = [
	declareValuePlugin(PluginKind.Ignore, 'tsc-interop', {
		shouldIgnore: (path) => (isInteropMarker(path) ? "tsc's __esModule marker, no line of the sources" : undefined),
	}),
];
