// Copyright 2009 the Sputnik authors.  All rights reserved.
// This code is governed by the BSD license found in the LICENSE file.

/*---
info: The Date constructor has the property "UTC"
esid: sec-date-constructor
description: Checking existence of the property "UTC"
---*/
assert(Date.hasOwnProperty("UTC"), 'Date.hasOwnProperty("UTC") must return true');
