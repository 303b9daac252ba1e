'use strict';
// xid-pg/zod: Zod schemas for an xid (zod 4).
//   xidText  a string that is an xid's text (11 Base58 symbols, at most
//            jpXCZedGfVQ); parses to the same string; its JSON schema has
//            the pattern
//   xid      an Xid, or its text, parsed to an Xid
// This file is the CommonJS build; zod.mjs is the same for import, each
// with the zod of its own kind.
const { z } = require('zod');
const { makeZod } = require('./frameworks.js');

module.exports = makeZod(z);
