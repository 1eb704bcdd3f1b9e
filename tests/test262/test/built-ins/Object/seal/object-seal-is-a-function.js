// Copyright (c) 2012 Ecma International.  All rights reserved.
// This code is governed by the BSD license found in the LICENSE file.

/*---
esid: sec-object.seal
description: Object.seal is a function
---*/

assert.sameValue(typeof Object.seal, "function", 'typeof(f)');
