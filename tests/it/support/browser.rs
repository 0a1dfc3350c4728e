//! Headless Chromium driven over the DevTools protocol for the browser tests: the protocol
//! runs over a pipe (`--remote-debugging-pipe`: commands on the browser's file descriptor 3,
//! answers on 4, each message ending with a NUL byte), set up by a shell, so no port and no
//! extra crate is needed.
//!
//! Which browser: `$PDN_CHROMIUM`, else `chromium`, `chromium-browser`, `google-chrome` on
//! the PATH. When none can run, [`Browser::launch_or_skip`] fails the test and says why,
//! unless `PDN_BROWSER_TESTS=skip` asks to skip the browser tests (then it says so on
//! standard error): a missing browser is never a silent pass. `.ci/run` installs Chromium.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use serde_json::{Value, json};

/// How long to wait for any one answer of the browser before giving up (a hang guard, not a
/// measurement).
const PATIENCE: Duration = Duration::from_secs(90);

/// A running headless Chromium.
pub(crate) struct Browser {
    child: Child,
    stdin: ChildStdin,
    rx: Receiver<Value>,
    next_id: u64,
    /// Every event received so far.
    pub(crate) events: Vec<Value>,
    log: PathBuf,
    _profile: tempfile::TempDir,
}

fn find_chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("PDN_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for name in [
            "chromium",
            "chromium-browser",
            "google-chrome",
            "google-chrome-stable",
        ] {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

impl Browser {
    /// Start the browser, or fail the test saying why (see the module's documentation).
    /// `None` only when `PDN_BROWSER_TESTS=skip`.
    pub(crate) fn launch_or_skip(test: &str) -> Option<Browser> {
        if std::env::var("PDN_BROWSER_TESTS").is_ok_and(|v| v == "skip") {
            eprintln!("SKIPPED browser test {test}: PDN_BROWSER_TESTS=skip");
            return None;
        }
        match Browser::launch() {
            Ok(b) => Some(b),
            Err(why) => panic!(
                "browser test {test} cannot run: {why}.\nInstall Chromium (apt-get install -y \
                 chromium; .ci/run does it) or point PDN_CHROMIUM at a Chromium binary; to skip \
                 the browser tests knowingly, set PDN_BROWSER_TESTS=skip."
            ),
        }
    }

    /// Start the browser.
    pub(crate) fn launch() -> Result<Browser, String> {
        let exe = find_chromium().ok_or("no Chromium found (chromium, chromium-browser, google-chrome on the PATH, or $PDN_CHROMIUM)")?;
        if !exe.is_file() {
            return Err(format!(
                "{} (from $PDN_CHROMIUM) is not a file",
                exe.display()
            ));
        }
        let profile = tempfile::tempdir().map_err(|e| e.to_string())?;
        let log = profile.path().join("chromium.log");
        let log_file = std::fs::File::create(&log).map_err(|e| e.to_string())?;
        let mut child = Command::new("sh")
            .arg("-c")
            // fd 3: our commands (the shell's stdin); fd 4: the answers (its stdout).
            .arg("exec \"$0\" \"$@\" 3<&0 4>&1 0</dev/null 1>&2")
            .arg(&exe)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-extensions",
                "--hide-scrollbars",
                "--remote-debugging-pipe",
                "--window-size=1280,900",
            ])
            .arg(format!(
                "--user-data-dir={}",
                profile.path().join("profile").display()
            ))
            .arg("about:blank")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(log_file)
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", exe.display()))?;
        let stdin = child.stdin.take().ok_or("no pipe to the browser")?;
        let stdout = child.stdout.take().ok_or("no pipe from the browser")?;
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            while let Ok(n) = r.read_until(0, &mut buf) {
                if n == 0 {
                    break;
                }
                if buf.last() == Some(&0) {
                    buf.pop();
                }
                if let Ok(v) = serde_json::from_slice::<Value>(&buf)
                    && tx.send(v).is_err()
                {
                    break;
                }
                buf.clear();
            }
        });
        let mut b = Browser {
            child,
            stdin,
            rx,
            next_id: 0,
            events: Vec::new(),
            log,
            _profile: profile,
        };
        if let Err(e) = b.call(None, "Browser.getVersion", json!({})) {
            // Give it a moment to write why it stopped.
            std::thread::sleep(Duration::from_millis(200));
            let log = b.log();
            let log = log.trim();
            return Err(if log.is_empty() || e.contains(log) {
                format!("{} does not answer: {e}", exe.display())
            } else {
                format!("{} does not answer ({e}); it said:\n{log}", exe.display())
            });
        }
        Ok(b)
    }

    /// What the browser wrote on its standard error (for failure messages).
    pub(crate) fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    fn recv(&mut self) -> Result<Value, String> {
        match self.rx.recv_timeout(PATIENCE) {
            Ok(v) => Ok(v),
            Err(RecvTimeoutError::Timeout) => Err(format!(
                "no answer from the browser in {} s",
                PATIENCE.as_secs()
            )),
            Err(RecvTimeoutError::Disconnected) => Err(format!(
                "the browser closed its pipe; its log:\n{}",
                self.log()
            )),
        }
    }

    /// Send a command (to a page's session, or to the browser) and wait for its result.
    pub(crate) fn call(
        &mut self,
        session: Option<&str>,
        method: &str,
        params: Value,
    ) -> Result<Value, String> {
        self.next_id += 1;
        let id = self.next_id;
        let mut msg = json!({"id": id, "method": method, "params": params});
        if let Some(s) = session {
            msg["sessionId"] = json!(s);
        }
        let mut bytes = serde_json::to_vec(&msg).map_err(|e| e.to_string())?;
        bytes.push(0);
        self.stdin
            .write_all(&bytes)
            .and_then(|()| self.stdin.flush())
            .map_err(|e| format!("cannot write to the browser: {e}"))?;
        loop {
            let v = self.recv()?;
            if v.get("id").and_then(Value::as_u64) == Some(id) {
                if let Some(e) = v.get("error") {
                    return Err(format!("{method}: {e}"));
                }
                return Ok(v.get("result").cloned().unwrap_or(Value::Null));
            }
            self.events.push(v);
        }
    }

    /// Wait for an event of a session (one already received counts).
    pub(crate) fn wait_event(&mut self, session: &str, method: &str) -> Result<Value, String> {
        let matches = |v: &Value| {
            v.get("method").and_then(Value::as_str) == Some(method)
                && v.get("sessionId").and_then(Value::as_str) == Some(session)
        };
        if let Some(i) = self.events.iter().position(matches) {
            return Ok(self.events.remove(i));
        }
        loop {
            let v = self.recv()?;
            if matches(&v) {
                return Ok(v);
            }
            self.events.push(v);
        }
    }

    /// Open a page and wait until it has loaded (its scripts have run).
    pub(crate) fn open(&mut self, url: &str) -> Result<String, String> {
        let target = self.call(None, "Target.createTarget", json!({"url": "about:blank"}))?;
        let target_id = target["targetId"]
            .as_str()
            .ok_or("no target id")?
            .to_string();
        let attached = self.call(
            None,
            "Target.attachToTarget",
            json!({"targetId": target_id, "flatten": true}),
        )?;
        let session = attached["sessionId"]
            .as_str()
            .ok_or("no session id")?
            .to_string();
        for domain in ["Page.enable", "Runtime.enable", "Log.enable"] {
            self.call(Some(&session), domain, json!({}))?;
        }
        self.call(Some(&session), "Page.navigate", json!({"url": url}))?;
        self.wait_event(&session, "Page.loadEventFired")?;
        Ok(session)
    }

    /// Evaluate an expression in a page (promises awaited); its value.
    pub(crate) fn eval(&mut self, session: &str, expr: &str) -> Result<Value, String> {
        let r = self.call(
            Some(session),
            "Runtime.evaluate",
            json!({"expression": expr, "returnByValue": true, "awaitPromise": true}),
        )?;
        if let Some(e) = r.get("exceptionDetails") {
            return Err(format!("`{expr}` threw: {e}"));
        }
        Ok(r["result"].get("value").cloned().unwrap_or(Value::Null))
    }

    /// Press a key in a page (keydown and keyup), e.g. `ArrowRight`.
    pub(crate) fn key(&mut self, session: &str, key: &str, code: u32) -> Result<(), String> {
        for kind in ["rawKeyDown", "keyUp"] {
            self.call(
                Some(session),
                "Input.dispatchKeyEvent",
                json!({"type": kind, "key": key, "code": key, "windowsVirtualKeyCode": code}),
            )?;
        }
        Ok(())
    }

    /// A PNG screenshot of a page's viewport.
    pub(crate) fn screenshot(&mut self, session: &str, path: &Path) -> Result<(), String> {
        let r = self.call(
            Some(session),
            "Page.captureScreenshot",
            json!({"format": "png"}),
        )?;
        let data = r["data"].as_str().ok_or("no screenshot")?;
        let bytes = decode_base64(data).ok_or("bad base64")?;
        std::fs::write(path, bytes).map_err(|e| e.to_string())
    }

    /// The errors the page reported so far: console errors, uncaught exceptions, browser log
    /// entries of level error (failed loads, refused resources), dialogs opened.
    pub(crate) fn errors(&mut self, session: &str) -> Vec<String> {
        // Let pending events arrive.
        let _ = self.call(
            Some(session),
            "Runtime.evaluate",
            json!({"expression": "0"}),
        );
        let mut out = Vec::new();
        for v in &self.events {
            if v.get("sessionId").and_then(Value::as_str) != Some(session) {
                continue;
            }
            let p = &v["params"];
            match v.get("method").and_then(Value::as_str) {
                Some("Runtime.consoleAPICalled")
                    if matches!(p["type"].as_str(), Some("error" | "assert")) =>
                {
                    out.push(format!("console.{}: {}", p["type"], p["args"]));
                }
                Some("Runtime.exceptionThrown") => out.push(format!("exception: {p}")),
                Some("Log.entryAdded") if p["entry"]["level"] == "error" => {
                    out.push(format!("log: {}", p["entry"]["text"]));
                }
                Some("Page.javascriptDialogOpening") => out.push(format!("dialog: {p}")),
                _ => {}
            }
        }
        out
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.call(None, "Browser.close", json!({}));
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn decode_base64(s: &str) -> Option<Vec<u8>> {
    let val = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => u32::from(c - b'A'),
            b'a'..=b'z' => u32::from(c - b'a') + 26,
            b'0'..=b'9' => u32::from(c - b'0') + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        })
    };
    let bytes: Vec<u8> = s.bytes().filter(|&c| c != b'=').collect();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= val(c)? << (18 - 6 * i);
        }
        out.push((n >> 16) as u8);
        if chunk.len() > 2 {
            out.push((n >> 8) as u8);
        }
        if chunk.len() > 3 {
            out.push(n as u8);
        }
    }
    Some(out)
}
