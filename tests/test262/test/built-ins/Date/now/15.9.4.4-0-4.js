// Copyright (c) 2012 Ecma International.  All rights reserved.
// This code is governed by the BSD license found in the LICENSE file.

/*---
esid: sec-date.now
description: Date.now - returns number
---*/

assert.sameValue(typeof Date.now(), "number", 'typeof Date.now()');
