//! The one JSON writer of every JSON output (validate's records and summary, stats, export,
//! fix's audit): written straight into the output buffer, with no intermediate value or
//! string, byte for byte what `serde_json` writes in its compact form (tested against it).

/// Append `s` as a JSON string literal (quotes included), escaped as `serde_json` does:
/// `"` and `\` with a backslash, the control characters below U+0020 as `\n`, `\r`, `\t`,
/// `\b`, `\f` or `\u00XX`; and, where `serde_json` writes them raw, DEL, the C1 controls and
/// the bidirectional controls of `terminal::is_unsafe` as `\uXXXX` (JSON shown on a terminal
/// cannot move the cursor or turn a line round; a JSON reader reads the same string);
/// everything else as is.
pub fn push_str(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let bytes = s.as_bytes();
    out.reserve(bytes.len() + 2);
    out.push('"');
    let mut start = 0;
    let mut i = skip_plain(bytes, 0);
    while i < bytes.len() {
        let b = bytes[i];
        if b >= 0x80 {
            // A character outside ASCII whose lead byte (0xC2, 0xD8 or 0xE2) is that of the
            // C1 controls and the bidirectional controls: escaped if it is one of those that
            // must not reach a terminal raw. `i` is on a character boundary.
            let c = s[i..].chars().next().unwrap_or('\0');
            let len = c.len_utf8();
            if crate::app::write::terminal::is_unsafe(c) {
                out.push_str(&s[start..i]);
                let u = c as u32;
                out.push_str("\\u");
                for shift in [12, 8, 4, 0] {
                    out.push(HEX[((u >> shift) & 0xf) as usize] as char);
                }
                start = i + len;
            }
            i = skip_plain(bytes, i + len);
            continue;
        }
        // `i` is at an ASCII byte, hence on a character boundary.
        out.push_str(&s[start..i]);
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            0x08 => out.push_str("\\b"),
            0x0c => out.push_str("\\f"),
            _ => {
                out.push_str("\\u00");
                out.push(HEX[(b >> 4) as usize] as char);
                out.push(HEX[(b & 0xf) as usize] as char);
            }
        }
        start = i + 1;
        i = skip_plain(bytes, start);
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// The bytes [`push_str`] must look at: below 0x20, `"`, `\`, DEL, and the lead bytes of the
/// characters outside ASCII that may need escaping (0xC2: the C1 controls; 0xD8: U+061C;
/// 0xE2: the bidirectional controls of U+2000 to U+2FFF). Continuation bytes are never
/// among them, so a scan byte by byte stops only on a character boundary.
const LOOK: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        t[b] = true;
        b += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t[0x7f] = true;
    t[0xc2] = true;
    t[0xd8] = true;
    t[0xe2] = true;
    t
};

/// The first byte at or after `i` that [`push_str`] must look at (`b.len()` if none):
/// sixteen bytes a step while all are plain ASCII, the last few copied into sixteen spaces
/// and tested at once (most strings are short and plain), then byte by byte through
/// [`LOOK`] from the first step that has a byte to look at.
#[inline]
fn skip_plain(b: &[u8], mut i: usize) -> usize {
    while let Some(chunk) = b.get(i..i + 16) {
        if !all_plain(chunk.try_into().unwrap_or(&[0; 16])) {
            break;
        }
        i += 16;
    }
    if let Some(rest) = b.get(i..).filter(|r| r.len() < 16) {
        let mut padded = [b' '; 16];
        padded[..rest.len()].copy_from_slice(rest);
        if all_plain(&padded) {
            return b.len();
        }
    }
    while i < b.len() && !LOOK[b[i] as usize] {
        i += 1;
    }
    i
}

/// True if all sixteen bytes are printable ASCII other than `"` and `\` (a test the compiler
/// makes a few vector instructions).
#[inline(always)]
fn all_plain(chunk: &[u8; 16]) -> bool {
    let mut look = 0u8;
    for &c in chunk {
        look |= u8::from((c < 0x20) | (c == b'"') | (c == b'\\') | (c >= 0x7f));
    }
    look == 0
}

/// Append an unsigned integer in decimal (two digits a step).
pub fn push_uint(out: &mut String, mut n: u64) {
    const PAIRS: &[u8; 200] = b"00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899";
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    while n >= 100 {
        let r = (n % 100) as usize * 2;
        n /= 100;
        i -= 2;
        buf[i..i + 2].copy_from_slice(&PAIRS[r..r + 2]);
    }
    if n >= 10 {
        let r = n as usize * 2;
        i -= 2;
        buf[i..i + 2].copy_from_slice(&PAIRS[r..r + 2]);
    } else {
        i -= 1;
        buf[i] = b'0' + n as u8;
    }
    out.reserve(buf.len() - i);
    for &d in &buf[i..] {
        out.push(char::from(d));
    }
}

/// Append a float as `serde_json` writes an `f64` (with the same shortest-digits algorithm,
/// `zmij`): `2.0`, `0.5`, `1e-7`, `1e+16`; `null` when it is not finite.
pub(crate) fn push_float(out: &mut String, v: f64) {
    if v.is_finite() {
        out.push_str(zmij::Buffer::new().format_finite(v));
    } else {
        out.push_str("null");
    }
}

/// A JSON object being written: its fields in the order they are added, then `}` and a line
/// break on [`Object::end`]. Keys are written as given (plain ASCII names, never escaped).
#[derive(Debug)]
pub struct Object<'a> {
    out: &'a mut String,
    first: bool,
}

impl<'a> Object<'a> {
    /// Start an object.
    pub fn new(out: &'a mut String) -> Self {
        out.push('{');
        Object { out, first: true }
    }

    // (Always inlined, as the fields' methods are: the key is then a constant and its copy a
    // few moves, not a call to `memcpy` for each of the 400,000 keys of a large run.)
    #[inline(always)]
    fn key(&mut self, key: &str) {
        self.out.reserve(key.len() + 4);
        self.out.push_str(if self.first { "\"" } else { ",\"" });
        self.first = false;
        self.out.push_str(key);
        self.out.push_str("\":");
    }

    /// A string field.
    #[inline(always)]
    pub fn str(&mut self, key: &str, v: &str) -> &mut Self {
        self.key(key);
        push_str(self.out, v);
        self
    }

    /// A string field, `null` when absent.
    #[inline(always)]
    pub(crate) fn opt_str(&mut self, key: &str, v: Option<&str>) -> &mut Self {
        match v {
            Some(v) => self.str(key, v),
            None => self.null(key),
        }
    }

    /// An unsigned integer field.
    #[inline(always)]
    pub fn uint(&mut self, key: &str, v: u64) -> &mut Self {
        self.key(key);
        push_uint(self.out, v);
        self
    }

    /// An unsigned integer field, `null` when absent.
    #[inline(always)]
    pub(crate) fn opt_uint(&mut self, key: &str, v: Option<u64>) -> &mut Self {
        match v {
            Some(v) => self.uint(key, v),
            None => self.null(key),
        }
    }

    /// An array of strings, `null` when absent. (Findings, the one user, are written
    /// directly: `diagnostic::json_finding`, tested against this.)
    #[cfg(test)]
    #[inline(always)]
    pub(crate) fn opt_strs(&mut self, key: &str, v: Option<&[String]>) -> &mut Self {
        let Some(v) = v else { return self.null(key) };
        self.key(key);
        self.out.push('[');
        for (i, s) in v.iter().enumerate() {
            if i > 0 {
                self.out.push(',');
            }
            push_str(self.out, s);
        }
        self.out.push(']');
        self
    }

    /// A boolean field.
    #[inline(always)]
    pub fn bool(&mut self, key: &str, v: bool) -> &mut Self {
        self.key(key);
        self.out.push_str(if v { "true" } else { "false" });
        self
    }

    /// An unsigned integer field whose key comes from the input (escaped).
    pub fn entry(&mut self, key: &str, v: u64) -> &mut Self {
        if !self.first {
            self.out.push(',');
        }
        self.first = false;
        push_str(self.out, key);
        self.out.push(':');
        push_uint(self.out, v);
        self
    }

    /// A float field (`null` when not finite).
    pub fn float(&mut self, key: &str, v: f64) -> &mut Self {
        self.key(key);
        push_float(self.out, v);
        self
    }

    /// A float field, `null` when absent.
    pub(crate) fn opt_float(&mut self, key: &str, v: Option<f64>) -> &mut Self {
        match v {
            Some(v) => self.float(key, v),
            None => self.null(key),
        }
    }

    /// An object field: fill the object returned, then [`Object::close`] it.
    pub fn object(&mut self, key: &str) -> Object<'_> {
        self.key(key);
        Object::new(self.out)
    }

    /// An array field: fill the array returned, then [`Array::close`] it.
    pub fn array(&mut self, key: &str) -> Array<'_> {
        self.key(key);
        self.out.push('[');
        Array {
            out: self.out,
            first: true,
        }
    }

    /// A boolean field.
    #[inline(always)]
    pub(crate) fn flag(&mut self, key: &str, v: bool) -> &mut Self {
        self.key(key);
        self.out.push_str(if v { "true" } else { "false" });
        self
    }

    /// A `null` field.
    #[inline(always)]
    pub fn null(&mut self, key: &str) -> &mut Self {
        self.key(key);
        self.out.push_str("null");
        self
    }

    /// Close the object and end the line.
    #[inline(always)]
    pub fn end(&mut self) {
        self.out.push_str("}\n");
    }

    /// Close an object inside another or in an array (no line break).
    pub fn close(&mut self) {
        self.out.push('}');
    }
}

/// A JSON array being written: its elements in order, then `]` on [`Array::close`].
#[derive(Debug)]
pub struct Array<'a> {
    out: &'a mut String,
    first: bool,
}

impl Array<'_> {
    fn comma(&mut self) {
        if !self.first {
            self.out.push(',');
        }
        self.first = false;
    }

    /// An object element: fill the object returned, then [`Object::close`] it.
    pub fn object(&mut self) -> Object<'_> {
        self.comma();
        Object::new(self.out)
    }

    /// A string element.
    pub fn str(&mut self, v: &str) -> &mut Self {
        self.comma();
        push_str(self.out, v);
        self
    }

    /// Close the array.
    pub fn close(&mut self) {
        self.out.push(']');
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn ours(s: &str) -> String {
        let mut out = String::new();
        push_str(&mut out, s);
        out
    }

    /// What `serde_json` writes, with DEL, the C1 and the bidirectional controls (which it
    /// writes raw) as `\uXXXX`.
    fn serde(s: &str) -> String {
        let mut out = String::new();
        for c in serde_json::to_string(s).unwrap().chars() {
            if crate::app::write::terminal::is_unsafe(c) && c >= '\u{7f}' {
                out.push_str(&format!("\\u{:04x}", c as u32));
            } else {
                out.push(c);
            }
        }
        out
    }

    #[test]
    fn strings_as_serde_json_writes_them() {
        for s in [
            "",
            "plain",
            "quote \" and backslash \\",
            "line\nbreak\r\ttab\u{8}\u{c}",
            "\u{0}\u{1}\u{1f}\u{7f}",
            "accents é ü and 中文 and 🂡",
            "/slash/",
        ] {
            assert_eq!(ours(s), serde(s), "{s:?}");
        }
        // What a terminal must not get raw is escaped, and reads back.
        for s in [
            "del \u{7f} nel \u{85} csi \u{9b} rlo \u{202e} lrm \u{200e} alm \u{61c} fsi \u{2068}",
            "\u{a0} \u{2070} \u{2000} \u{c0} é",
        ] {
            assert_eq!(ours(s), serde(s), "{s:?}");
            assert_eq!(serde_json::from_str::<String>(&ours(s)).unwrap(), s);
        }
        assert_eq!(ours("a\u{202e}b\u{7f}"), "\"a\\u202eb\\u007f\"");
    }

    #[test]
    fn numbers() {
        let mut all = vec![0u64, 7, 10, 99, 100, 12345, u64::MAX];
        for k in 1..20 {
            let p = 10u64.pow(k);
            all.extend([p - 1, p, p + 1, p / 10 * 9 + 5]);
        }
        for n in all {
            let mut out = String::from("x");
            push_uint(&mut out, n);
            assert_eq!(out, format!("x{n}"));
        }
    }

    #[test]
    fn object_shape() {
        let mut out = String::new();
        Object::new(&mut out)
            .str("type", "x")
            .opt_uint("a", Some(3))
            .opt_uint("b", None)
            .opt_str("c", None)
            .opt_strs("d", Some(&["p".to_string(), "q\"".to_string()]))
            .opt_strs("e", None)
            .end();
        assert_eq!(
            out,
            "{\"type\":\"x\",\"a\":3,\"b\":null,\"c\":null,\"d\":[\"p\",\"q\\\"\"],\"e\":null}\n"
        );
    }

    #[test]
    fn floats_as_serde_json_writes_them() {
        for v in [
            0.0,
            -0.0,
            0.5,
            2.0,
            -3.0,
            1e-5,
            9.99e-6,
            1e15,
            1e16,
            1.5e16,
            1e-7,
            123.456,
            1.0 / 3.0,
            f64::MAX,
            f64::MIN_POSITIVE,
            5e-324,
            f64::NAN,
            f64::INFINITY,
        ] {
            let mut out = String::new();
            push_float(&mut out, v);
            assert_eq!(out, serde_json::to_string(&v).unwrap(), "{v:?}");
        }
    }

    proptest! {
        #[test]
        fn any_string_as_serde_json(s in any::<String>()) {
            prop_assert_eq!(ours(&s), serde(&s));
            prop_assert_eq!(serde_json::from_str::<String>(&ours(&s)).unwrap(), s);
        }

        #[test]
        fn any_uint_in_decimal(n in any::<u64>(), k in 0u32..20) {
            for v in [n, n >> (3 * k), n % 10u64.pow(k)] {
                let mut out = String::new();
                push_uint(&mut out, v);
                prop_assert_eq!(out, v.to_string());
            }
        }

        /// Mostly plain text with the bytes that need a look anywhere in it, across the
        /// sixteen-byte steps of the loop and its padded rest.
        #[test]
        fn mostly_plain_strings_as_serde_json(
            s in r"[ -~]{0,40}[ -~\n\t\x{1}\x{7f}\u{80}\u{85}\u{9f}\u{61c}\u{200e}\u{202e}\u{2066}\u{2069}é€𝄞]{0,3}[ -~]{0,40}",
        ) {
            prop_assert_eq!(ours(&s), serde(&s));
        }

        #[test]
        fn any_float_as_serde_json(bits in any::<u64>(), small in -1e7f64..1e7) {
            for v in [f64::from_bits(bits), small, small.round(), small / 1e9] {
                let mut out = String::new();
                push_float(&mut out, v);
                prop_assert_eq!(out, serde_json::to_string(&v).unwrap(), "{:?}", v);
            }
        }
    }
}
