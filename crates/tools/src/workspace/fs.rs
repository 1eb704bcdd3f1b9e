//! Opening files safely: only regular files, never blocking on open.

use std::fs::{File, FileType, Metadata, OpenOptions};
use std::io::Read as _;
use std::path::Path;

use super::blocking::Cancel;
use codemode_catalog::ToolError;

/// Why a path was not opened.
#[derive(Debug)]
pub(crate) enum OpenError {
    /// The path is a directory.
    Directory,
    /// The path is a FIFO, socket or device (named by the string).
    NotRegular(&'static str),
    /// The file system refused.
    Io(std::io::Error),
}

/// What a non-regular, non-directory file type is, for messages.
pub(crate) fn special_kind(t: &FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_char_device() {
            return "a character device";
        }
    }
    if t.is_symlink() { "a symbolic link" } else { "not a regular file" }
}

fn check_kind(t: &FileType) -> Result<(), OpenError> {
    if t.is_file() {
        Ok(())
    } else if t.is_dir() {
        Err(OpenError::Directory)
    } else {
        Err(OpenError::NotRegular(special_kind(t)))
    }
}

/// Opens `path` for reading if it is a regular file, returning the opened
/// handle's own metadata.
///
/// The type is checked before opening (opening a device can have side
/// effects; opening a FIFO blocks until a writer comes) and again on the
/// handle, which is opened non-blocking and without following a final
/// symlink, so a path swapped in between cannot make it block or escape.
pub(crate) fn open_regular(path: &Path) -> Result<(File, Metadata), OpenError> {
    check_kind(&std::fs::metadata(path).map_err(OpenError::Io)?.file_type())?;
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // O_NONBLOCK only changes opening FIFOs and devices; reads of a
        // regular file are unaffected by it.
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW | libc::O_NOCTTY);
    }
    let file = options.open(path).map_err(OpenError::Io)?;
    let meta = file.metadata().map_err(OpenError::Io)?;
    check_kind(&meta.file_type())?;
    Ok((file, meta))
}

/// Reads at most `max` bytes of `file` in chunks, checking `cancel`
/// between them. `Ok(None)` when the file holds more than `max` bytes.
pub(crate) fn read_bounded(file: File, max: u64, cancel: &Cancel) -> Result<Option<Vec<u8>>, ReadError> {
    let mut limited = file.take(max.saturating_add(1));
    let mut out = Vec::new();
    let mut chunk = vec![0; 64 * 1024];
    loop {
        cancel.check().map_err(ReadError::Cancelled)?;
        let n = match limited.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(ReadError::Io(e)),
        };
        out.extend_from_slice(&chunk[..n]);
        if out.len() as u64 > max {
            return Ok(None);
        }
    }
    Ok(Some(out))
}

/// Why [`read_bounded`] stopped.
#[derive(Debug)]
pub(crate) enum ReadError {
    /// The call was abandoned.
    Cancelled(ToolError),
    /// The file system refused.
    Io(std::io::Error),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::tests::TestDir;

    #[test]
    fn a_fifo_is_refused_without_blocking_and_a_file_opens() {
        let dir = TestDir::new("open-fifo");
        let fifo = dir.mkfifo("pipe");
        match open_regular(&fifo) {
            Err(OpenError::NotRegular(kind)) => assert_eq!(kind, "a FIFO"),
            other => panic!("expected a FIFO refusal, got {other:?}"),
        }
        std::fs::write(dir.0.join("a.txt"), "abc").unwrap();
        let (file, meta) = open_regular(&dir.0.join("a.txt")).unwrap();
        assert_eq!(meta.len(), 3);
        assert_eq!(read_bounded(file, 3, &Cancel::default()).unwrap(), Some(b"abc".to_vec()));
        let (file, _) = open_regular(&dir.0.join("a.txt")).unwrap();
        assert_eq!(read_bounded(file, 2, &Cancel::default()).unwrap(), None);
        assert!(matches!(open_regular(&dir.0), Err(OpenError::Directory)));
    }
}
