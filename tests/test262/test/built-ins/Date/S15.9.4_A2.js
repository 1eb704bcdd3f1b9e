// Copyright 2009 the Sputnik authors.  All rights reserved.
// This code is governed by the BSD license found in the LICENSE file.

/*---
info: The Date constructor has the property "parse"
esid: sec-date-constructor
description: Checking existence of the property "parse"
---*/
assert(Date.hasOwnProperty("parse"), 'Date.hasOwnProperty("parse") must return true');
