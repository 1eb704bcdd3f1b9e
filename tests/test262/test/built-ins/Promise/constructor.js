// Copyright (C) 2019 Aleksey Shvayka. All rights reserved.
// This code is governed by the BSD license found in the LICENSE file.
/*---
esid: sec-promise-executor
description: >
  The Promise constructor is a built-in function
---*/

assert.sameValue(typeof Promise, 'function');
