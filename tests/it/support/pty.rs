//! Pseudo-terminals, for the tests of what `pdn` does on a terminal: the progress bar, the
//! summary on standard error, colour, games typed at the terminal, Ctrl-C and Ctrl-D.

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::{FromRawFd, OwnedFd};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// A pseudo-terminal: the master end is the test's, the slave end the child's.
pub(crate) struct Pty {
    master: File,
    slave: Option<OwnedFd>,
}

impl Pty {
    /// A terminal of `cols` columns and 24 rows.
    pub(crate) fn new(cols: u16) -> Pty {
        let (mut m, mut s) = (0, 0);
        let ws = libc::winsize {
            ws_row: 24,
            ws_col: cols,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        // SAFETY: openpty fills two descriptors; the pointers are valid for the call.
        let r =
            unsafe { libc::openpty(&mut m, &mut s, std::ptr::null_mut(), std::ptr::null(), &ws) };
        assert_eq!(r, 0, "openpty");
        // SAFETY: both descriptors were just opened and are owned here.
        unsafe {
            Pty {
                master: File::from_raw_fd(m),
                slave: Some(OwnedFd::from_raw_fd(s)),
            }
        }
    }

    /// The terminal for one of the child's streams (call before [`Pty::screen`]).
    pub(crate) fn stdio(&self) -> Stdio {
        let slave = self.slave.as_ref().expect("the slave is still open");
        Stdio::from(slave.try_clone().expect("dup the slave"))
    }

    /// Start reading what the child writes to the terminal, once it is spawned and its
    /// `Command` dropped (which holds its ends of the terminal). The test's own slave end is
    /// closed, so the reading ends when the child's streams are closed (when it exits).
    pub(crate) fn screen(&mut self) -> Screen {
        self.slave = None;
        let (tx, rx) = channel();
        let mut reader = self.master.try_clone().unwrap();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        Screen {
            rx,
            bytes: Vec::new(),
        }
    }

    /// Type at the terminal.
    pub(crate) fn type_in(&mut self, bytes: &[u8]) {
        self.master.write_all(bytes).unwrap();
    }
}

/// Make the terminal on the child's standard error its controlling terminal (`setsid`,
/// `TIOCSCTTY`), so that a Ctrl-C typed into it interrupts the child as it would a
/// person's.
pub(crate) fn controlling(cmd: &mut Command) {
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        use std::os::unix::process::CommandExt;
        cmd.pre_exec(|| {
            if libc::setsid() < 0 || libc::ioctl(2, libc::TIOCSCTTY, 0) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

/// What the child wrote to the terminal.
pub(crate) struct Screen {
    rx: Receiver<Vec<u8>>,
    pub(crate) bytes: Vec<u8>,
}

impl Screen {
    /// The text so far.
    pub(crate) fn text(&self) -> String {
        String::from_utf8_lossy(&self.bytes).into_owned()
    }

    /// Read until the text holds `needle`, while the child runs (a hang fails after a
    /// minute).
    pub(crate) fn wait_for(&mut self, child: &mut Child, needle: &str) {
        let start = Instant::now();
        while !self.text().contains(needle) {
            if let Ok(b) = self.rx.recv_timeout(Duration::from_millis(50)) {
                self.bytes.extend(b);
                continue;
            }
            assert!(
                child.try_wait().unwrap().is_none(),
                "ended before {needle:?} was written: {:?}",
                self.text()
            );
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "no {needle:?} in a minute: {:?}",
                self.text()
            );
        }
    }

    /// Read what comes within `d`; false once the child's ends are closed (it has exited).
    pub(crate) fn read_for(&mut self, d: Duration) -> bool {
        match self.rx.recv_timeout(d) {
            Ok(b) => {
                self.bytes.extend(b);
                true
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => true,
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => false,
        }
    }

    /// Wait for the child to end (a hang fails after a minute) and read everything it
    /// wrote; its exit status.
    pub(crate) fn finish(&mut self, child: &mut Child) -> Option<i32> {
        let start = Instant::now();
        let code = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break s.code();
            }
            if let Ok(b) = self.rx.recv_timeout(Duration::from_millis(50)) {
                self.bytes.extend(b);
            }
            if start.elapsed() > Duration::from_secs(60) {
                let _ = child.kill();
                panic!("still running after a minute: {:?}", self.text());
            }
        };
        // The child's ends are closed: the reader thread ends at the end of the data.
        while let Ok(b) = self.rx.recv() {
            self.bytes.extend(b);
        }
        code
    }
}
