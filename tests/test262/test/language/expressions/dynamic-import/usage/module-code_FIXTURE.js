// Copyright (C) 2018 Leo Balter. All rights reserved.
// This code is governed by the BSD license found in the LICENSE file.

const x = 'Test262';
const y = 42;

export default y;
export { x, y as z };
