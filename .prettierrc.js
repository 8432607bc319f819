// The n8n community-node starter's formatting (the same options as `n8n-node new` writes), so the
// code reads like n8n's own nodes. `npm run format` applies it; `npm run lint` checks it.
module.exports = {
	semi: true,
	trailingComma: 'all',
	bracketSpacing: true,
	useTabs: true,
	tabWidth: 2,
	arrowParens: 'always',
	singleQuote: true,
	quoteProps: 'as-needed',
	endOfLine: 'lf',
	printWidth: 100,
};
