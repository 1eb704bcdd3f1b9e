// TextEncoder and TextDecoder (GA-3)
// A lazily loaded part of the guest prelude (see prelude.js): evaluated
// the first time a cell touches it, with the core's internals, which
// were captured before any guest code ran.
(function (k) {
  "use strict";
  const { JSONstringify } = k;

  // ---- TextEncoder / TextDecoder (UTF-8 only) ---------------------------
  // The code point at `i` (lone surrogates become U+FFFD) and its width.
  function codePointAt(str, i) {
    const c = str.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < str.length) {
      const d = str.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) return [0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00), 2];
    }
    return [c >= 0xd800 && c <= 0xdfff ? 0xfffd : c, 1];
  }
  function utf8Bytes(cp) {
    return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  // Writes whole code points of `str` into `dest` while they fit.
  function utf8Write(str, dest) {
    let read = 0, written = 0;
    const cap = dest.length;
    while (read < str.length) {
      const [cp, units] = codePointAt(str, read);
      const n = utf8Bytes(cp);
      if (written + n > cap) break;
      if (n === 1) dest[written++] = cp;
      else if (n === 2) { dest[written++] = 0xc0 | (cp >> 6); dest[written++] = 0x80 | (cp & 63); }
      else if (n === 3) { dest[written++] = 0xe0 | (cp >> 12); dest[written++] = 0x80 | ((cp >> 6) & 63); dest[written++] = 0x80 | (cp & 63); }
      else { dest[written++] = 0xf0 | (cp >> 18); dest[written++] = 0x80 | ((cp >> 12) & 63); dest[written++] = 0x80 | ((cp >> 6) & 63); dest[written++] = 0x80 | (cp & 63); }
      read += units;
    }
    return { read, written };
  }
  class TextEncoder {
    get encoding() { return "utf-8"; }
    encode(input = "") {
      const str = String(input);
      let length = 0;
      for (let i = 0; i < str.length; ) {
        const [cp, units] = codePointAt(str, i);
        length += utf8Bytes(cp);
        i += units;
      }
      const out = new Uint8Array(length);
      utf8Write(str, out);
      return out;
    }
    encodeInto(input, dest) {
      if (!(dest instanceof Uint8Array)) throw new TypeError("encodeInto destination must be a Uint8Array");
      return utf8Write(String(input), dest);
    }
  }
  const UTF8_LABELS = ["utf-8", "utf8", "unicode-1-1-utf-8"];
  function toBytes(input) {
    if (input === undefined) return new Uint8Array(0);
    if (input instanceof ArrayBuffer) return new Uint8Array(input);
    if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
    throw new TypeError("TextDecoder.decode expects an ArrayBuffer or a typed array");
  }
  class TextDecoder {
    #fatal; #ignoreBOM; #carry; #bomSeen;
    constructor(label = "utf-8", options = {}) {
      const l = String(label).trim().toLowerCase();
      if (!UTF8_LABELS.includes(l)) throw new RangeError("TextDecoder supports only utf-8, not " + JSONstringify(String(label)));
      this.#fatal = Boolean(options && options.fatal);
      this.#ignoreBOM = Boolean(options && options.ignoreBOM);
      this.#carry = [];
      this.#bomSeen = false;
    }
    get encoding() { return "utf-8"; }
    get fatal() { return this.#fatal; }
    get ignoreBOM() { return this.#ignoreBOM; }
    decode(input, options) {
      const stream = Boolean(options && options.stream);
      const src = toBytes(input);
      const bytes = this.#carry.length ? this.#carry.concat(Array.from(src)) : src;
      this.#carry = [];
      let out = "";
      let i = 0;
      const n = bytes.length;
      const fail = () => {
        if (this.#fatal) { this.#bomSeen = false; throw new TypeError("The encoded data was not valid utf-8"); }
        out += "\ufffd";
      };
      while (i < n) {
        const b = bytes[i];
        if (b < 0x80) { out += String.fromCharCode(b); i++; continue; }
        let need, cp, lower = 0x80, upper = 0xbf;
        if (b >= 0xc2 && b <= 0xdf) { need = 1; cp = b & 0x1f; }
        else if (b >= 0xe0 && b <= 0xef) { need = 2; cp = b & 0xf; if (b === 0xe0) lower = 0xa0; if (b === 0xed) upper = 0x9f; }
        else if (b >= 0xf0 && b <= 0xf4) { need = 3; cp = b & 7; if (b === 0xf0) lower = 0x90; if (b === 0xf4) upper = 0x8f; }
        else { fail(); i++; continue; }
        let j = 1;
        for (; j <= need; j++) {
          if (i + j >= n) break;
          const c = bytes[i + j];
          if (c < lower || c > upper) break;
          lower = 0x80; upper = 0xbf;
          cp = (cp << 6) | (c & 0x3f);
        }
        if (j <= need) {
          if (i + j >= n && stream) { this.#carry = Array.prototype.slice.call(bytes, i); break; }
          fail(); i += j; continue;
        }
        out += String.fromCodePoint(cp);
        i += need + 1;
      }
      if (!this.#ignoreBOM && !this.#bomSeen && out.charCodeAt(0) === 0xfeff) out = out.slice(1);
      if (out.length > 0) this.#bomSeen = true;
      if (!stream) this.#bomSeen = false;
      return out;
    }
  }


  return { TextEncoder, TextDecoder };
})
