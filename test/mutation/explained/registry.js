'use strict';
// registry/: why each survivor is left (index.js says how a line reads).
module.exports = [
	['registry/prices.ts', `'' → "Stryker was here!"`, "tierOfValue's String(value ?? ''): an absent value read as that text instead of '' is no tier name and no WxH size either, so it names no tier: equivalent"],
	['registry/models.ts', '[] → ["Stryker was here"]', "modelKind's tags when the gateway sent no list: one made-up tag instead of none matches neither a kind tag nor a text-only one, so the id is classified by its name or as a guess all the same: equivalent"],
];
