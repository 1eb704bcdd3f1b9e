//! Unguessable identities: run ids, result references, node secrets,
//! connection ids.
//!
//! Every identity a client could present to reach someone else's data is
//! 128 or more random bits from the operating system. There is no
//! fallback: without OS randomness an id cannot be unguessable, so the
//! caller gets an error to refuse the request with, never a predictable id.

/// The operating system gave no randomness.
#[derive(Clone, Debug, thiserror::Error)]
#[error("the operating system gave no randomness for an unguessable id: {0}")]
pub struct NoRandomness(String);

/// `N` random bytes from the operating system.
///
/// # Errors
/// [`NoRandomness`] when the OS source fails.
pub fn random_bytes<const N: usize>() -> Result<[u8; N], NoRandomness> {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).map_err(|e| NoRandomness(e.to_string()))?;
    Ok(bytes)
}

/// `prefix` followed by `N` random bytes in lower-case hex.
///
/// # Errors
/// [`NoRandomness`] when the OS source fails.
pub fn unguessable<const N: usize>(prefix: &str) -> Result<String, NoRandomness> {
    Ok(hex_into(prefix.to_owned(), &random_bytes::<N>()?))
}

/// `bytes` appended to `out` in lower-case hex.
#[must_use]
pub fn hex_into(mut out: String, bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    out.reserve(bytes.len() * 2);
    for b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 0xf)]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_carry_their_prefix_and_128_random_bits_in_hex() {
        let a = unguessable::<16>("run_").unwrap();
        let b = unguessable::<16>("run_").unwrap();
        assert_eq!(a.len(), 4 + 32);
        assert!(a.starts_with("run_") && a[4..].bytes().all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()));
        assert_ne!(a, b);
    }

    #[test]
    fn hex_is_two_lower_case_digits_a_byte() {
        assert_eq!(hex_into(String::new(), &[0, 0x0f, 0xa0, 0xff]), "000fa0ff");
    }
}
