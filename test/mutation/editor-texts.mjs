// @ts-check
/**
 * A Stryker ignorer (test/mutation/stryker.config.mjs): the words the editor shows beside a field,
 * the value of a `displayName`, `description`, `placeholder`, `hint` or `action` in a field or an
 * option (an object with a `displayName`, or an option's `name` and `value`). A test that loads
 * the node inside itself (every node run's first) runs the code that builds the fields, so each
 * word of them became a mutant no behaviour can catch: about half of the mutants of
 * params/spendGuardOptions.ts. The field's name, type, default and options stay mutated (the
 * parameter-name and default locks hold them), and so does every error text: an error's
 * `description` sits in an object with neither. Also left out: the `why` of a NumberLimit row
 * (registry/limits.ts, an object with `label`, `min` and `max`), a note for maintainers that the
 * node never reads.
 */
import { PluginKind, declareValuePlugin } from '@stryker-mutator/api/plugin';

const TEXTS = new Set(['displayName', 'description', 'placeholder', 'hint', 'action']);

/** @param {any} key a Babel node */
const keyName = (key) => (key?.type === 'Identifier' ? key.name : key?.type === 'StringLiteral' ? key.value : undefined);

/** @param {any} path a Babel NodePath */
function isEditorText(path) {
	const property = path.parentPath?.node;
	if (property?.type !== 'ObjectProperty' || property.value !== path.node || !TEXTS.has(keyName(property.key) ?? '')) return false;
	const keys = new Set(path.parentPath.parentPath?.node?.properties?.map((/** @type {any} */ p) => keyName(p.key)) ?? []);
	return keys.has('displayName') || (keys.has('name') && keys.has('value'));
}

/** @param {any} path a Babel NodePath */
function isMaintainersNote(path) {
	const property = path.parentPath?.node;
	if (property?.type !== 'ObjectProperty' || property.value !== path.node || keyName(property.key) !== 'why') return false;
	const keys = new Set(path.parentPath.parentPath?.node?.properties?.map((/** @type {any} */ p) => keyName(p.key)) ?? []);
	return keys.has('label') && keys.has('min') && keys.has('max');
}

export const strykerPlugins = [
	declareValuePlugin(PluginKind.Ignore, 'editor-texts', {
		shouldIgnore: (path) =>
			isEditorText(path)
				? "the editor's words beside a field: no behaviour"
				: isMaintainersNote(path)
					? "a limit's note for maintainers: the node never reads it"
					: undefined,
	}),
];
