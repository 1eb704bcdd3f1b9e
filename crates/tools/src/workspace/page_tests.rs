//! Tests of the streaming pager: the page contract, chunk boundaries and
//! arbitrary input.

use std::io::BufReader;

use proptest::prelude::*;

use super::*;

/// One page of `bytes`, read through a buffer of `chunk` bytes so that
/// lines and characters straddle chunk boundaries.
fn page_of(
    bytes: &[u8],
    offset: usize,
    cursor: usize,
    limit: usize,
    max_bytes: usize,
    chunk: usize,
) -> Result<Page, ToolError> {
    let reader = BufReader::with_capacity(chunk, bytes);
    page(reader, Request { offset, cursor, limit, max_bytes }, "t", &Cancel::default())
}

/// Every page of `text`, joined back as GA-12.3 says.
fn read_all(text: &str, limit: usize, max_bytes: usize, chunk: usize) -> String {
    let (mut offset, mut cursor, mut out) = (1, 0, String::new());
    let mut first = true;
    let mut joined_by_cursor = false;
    for _ in 0..=text.len() + 2 {
        let p = page_of(text.as_bytes(), offset, cursor, limit, max_bytes, chunk).unwrap();
        assert!(p.content.len() <= max_bytes.max(4), "page of {} bytes", p.content.len());
        assert_eq!(p.total_lines, text.split('\n').count());
        if !first && !joined_by_cursor {
            out.push('\n');
        }
        out.push_str(&p.content);
        first = false;
        match p.next {
            Some(c) => {
                joined_by_cursor = c.cursor.is_some();
                offset = c.offset;
                cursor = c.cursor.unwrap_or(0);
            }
            None => return out,
        }
    }
    panic!("paging did not end");
}

#[test]
fn pages_join_back_to_the_original_text() {
    for text in ["", "a", "a\n", "a\nb\n\nc", &"x".repeat(200_000), &format!("{}\n{}\n", "é".repeat(70_000), "y")] {
        for chunk in [1, 3, 8192] {
            assert_eq!(read_all(text, 2, 64 * 1024, chunk), text);
            assert_eq!(read_all(text, 2000, 64 * 1024, chunk), text);
        }
    }
}

#[test]
fn limits_and_offsets_are_respected() {
    let p = page_of(b"a\nb\nc", 2, 0, 1, 1024, 8192).unwrap();
    assert_eq!(
        p,
        Page { content: "b".into(), next: Some(Continuation { offset: 3, cursor: None }), total_lines: 3, bytes: 5 }
    );
    let e = page_of(b"a", 3, 0, 1, 1024, 8192).unwrap_err();
    assert_eq!(e.message, "offset 3 is past the end of the file (1 lines)");
}

#[test]
fn a_full_page_stops_before_the_next_line_even_an_empty_one() {
    let p = page_of(b"abcd\n\nx", 1, 0, 10, 4, 8192).unwrap();
    assert_eq!((p.content.as_str(), p.next), ("abcd", Some(Continuation { offset: 2, cursor: None })));
}

#[test]
fn a_cursor_past_the_end_of_its_line_gives_an_empty_page_start() {
    let p = page_of(b"ab\ncd", 1, 10, 10, 1024, 8192).unwrap();
    assert_eq!((p.content.as_str(), p.next), ("\ncd", None));
}

#[test]
fn text_that_is_not_utf8_anywhere_is_refused_even_past_the_page() {
    let mut bytes = b"ok\n".repeat(10);
    bytes.extend_from_slice(&[0xff, b'\n']);
    let e = page_of(&bytes, 1, 0, 1, 1024, 4).unwrap_err();
    assert_eq!((e.code.as_str(), e.message.as_str()), ("invalid_input", "t is not UTF-8 text"));
    // A character cut off by the end of the stream.
    assert!(page_of("é".as_bytes().split_last().unwrap().1, 1, 0, 1, 1024, 1).is_err());
}

#[test]
fn a_cancelled_page_stops() {
    let cancel = Cancel::default();
    cancel.cancel();
    let e = page(&b"abc"[..], Request { offset: 1, cursor: 0, limit: 1, max_bytes: 8 }, "t", &cancel).unwrap_err();
    assert_eq!(e.code, "cancelled");
}

proptest! {
    #[test]
    fn pages_of_arbitrary_text_join_back_byte_for_byte(
        text in "([a\\n]|é|🦞|\\PC){0,200}",
        limit in 1usize..6,
        max_bytes in 1usize..40,
        chunk in 1usize..9,
    ) {
        prop_assert_eq!(read_all(&text, limit, max_bytes, chunk), text);
    }

    #[test]
    fn pages_of_arbitrary_bytes_never_panic(
        bytes in proptest::collection::vec(any::<u8>(), 0..200),
        offset in 0usize..20,
        cursor in 0usize..300,
        limit in 0usize..6,
        max_bytes in 0usize..40,
        chunk in 1usize..9,
    ) {
        let result = page_of(&bytes, offset, cursor, limit, max_bytes, chunk);
        if let Ok(p) = result {
            prop_assert!(std::str::from_utf8(&bytes).is_ok());
            prop_assert_eq!(p.bytes, bytes.len() as u64);
        }
    }
}
