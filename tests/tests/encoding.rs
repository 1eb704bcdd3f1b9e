//! TextEncoder and TextDecoder (GA-3).

use codemode_tests::*;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn encoder_and_decoder_survive_a_wait_ga_3_1() {
    let rt = runtime().await;
    let results = run_to_end(
        &rt,
        "const e = new TextEncoder(); const d = new TextDecoder(); await yield_control(); \
         return [Array.from(e.encode('hello 🦞')), e.encodeInto('🦞', new Uint8Array(4)), d.encoding, \
         d.decode(new Uint8Array([104, 105])), typeof fetch, typeof require]",
    )
    .await;
    assert_eq!(
        value(results.last().unwrap()),
        &json!([[104, 101, 108, 108, 111, 32, 240, 159, 166, 158], {"read": 2, "written": 4}, "utf-8", "hi", "undefined", "undefined"])
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn decoding_round_trips_and_handles_bad_bytes_ga_3_2() {
    let rt = runtime().await;
    let r = exec(
        &rt,
        "const s = 'aé€🦞'; const bytes = new TextEncoder().encode(s); \
         const lossy = new TextDecoder().decode(new Uint8Array([0x61, 0xff, 0x62, 0xe2, 0x82])); \
         let fatal; try { new TextDecoder('utf-8', {fatal: true}).decode(new Uint8Array([0xc3])); } catch (e) { fatal = e.name; } \
         const d = new TextDecoder(); const streamed = d.decode(bytes.slice(0, 4), {stream: true}) + d.decode(bytes.slice(4)); \
         let label; try { new TextDecoder('latin1') } catch (e) { label = e.name } \
         return [new TextDecoder().decode(bytes) === s, lossy, fatal, streamed === s, label, \
           new TextDecoder().decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x41])), \
           new TextEncoder().encodeInto('ab🦞', new Uint8Array(3))]",
    )
    .await;
    assert_eq!(
        value(&r),
        &json!([true, "a\u{fffd}b\u{fffd}", "TypeError", true, "RangeError", "A", {"read": 2, "written": 2}])
    );
}
