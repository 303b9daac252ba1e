'use strict';
console.log('skip README snippets: not written yet');
