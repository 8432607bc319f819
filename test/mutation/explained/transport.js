'use strict';
// transport/: why each survivor is left (index.js says how a line reads).
module.exports = [
	['transport/urls.ts', 'Regex /:$/ → /:/', "a URL's protocol ends in one colon, which both remove: equivalent"],
];
