//! The course page an embedded widget listens to, by its origin (`parent=https://course.example.org`
//! in an embed link): [`Origin`], read by [`Origin::parse`] (an origin exactly) or
//! [`Origin::of_page`] (a page's address, its path left out), and [`OriginError`], what is wrong
//! with one that does not read.

use core::fmt;

/// The longest origin read: a host name has at most 253 characters.
const MAX_ORIGIN_LEN: usize = 300;

/// A web origin, `scheme://host[:port]`, written as a browser writes `MessageEvent.origin`:
/// `http` or `https`, the host in lower case, the scheme's default port left out. A host is a
/// name or an IPv4 address (letters, digits, `-` and `.`; an international name in its
/// `xn--` form).
///
/// ```
/// use parallel_core::link::Origin;
/// let origin = Origin::parse("https://Course.Example.org:443").unwrap();
/// assert_eq!(origin.as_str(), "https://course.example.org");
/// assert!(origin.is("https://course.example.org"));
/// assert!(!origin.is("https://evil.example"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Origin(String);

/// Why a text is not an origin.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OriginError {
    /// It does not start with `http://` or `https://` (a page opened from a file has no origin
    /// to name).
    Scheme,
    /// No host, or a character a host name does not have.
    Host,
    /// A port that is not a number from 1 to 65535.
    Port,
    /// A path, query or fragment after the host: an origin has none.
    Path,
    /// Longer than any origin.
    TooLong,
}

impl fmt::Display for OriginError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OriginError::Scheme => "an origin starts with http:// or https://",
            OriginError::Host => "the host is missing or has a character a host name does not have",
            OriginError::Port => "the port is not a number from 1 to 65535",
            OriginError::Path => "an origin ends after the host and port, with no path",
            OriginError::TooLong => "too long for an origin",
        })
    }
}

impl std::error::Error for OriginError {}

impl Origin {
    /// Reads an origin, `scheme://host[:port]` and nothing after it (surrounding white space
    /// aside), as an embed link's `parent=` holds it.
    ///
    /// ```
    /// use parallel_core::link::{Origin, OriginError};
    /// assert_eq!(Origin::parse("http://127.0.0.1:8080").unwrap().as_str(), "http://127.0.0.1:8080");
    /// assert_eq!(Origin::parse("course.example.org"), Err(OriginError::Scheme));
    /// assert_eq!(Origin::parse("https://course.example.org/week1"), Err(OriginError::Path));
    /// ```
    pub fn parse(text: &str) -> Result<Origin, OriginError> {
        let text = text.trim();
        if text.len() > MAX_ORIGIN_LEN {
            return Err(OriginError::TooLong);
        }
        let lower = text.to_ascii_lowercase();
        let (scheme, rest, default_port) = if let Some(rest) = lower.strip_prefix("https://") {
            ("https", rest, 443)
        } else if let Some(rest) = lower.strip_prefix("http://") {
            ("http", rest, 80)
        } else {
            return Err(OriginError::Scheme);
        };
        if rest.contains(['/', '?', '#']) {
            return Err(OriginError::Path);
        }
        let (host, port) = match rest.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (rest, None),
        };
        let label_ok = |label: &str| {
            !label.is_empty()
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
        };
        if !host.split('.').all(label_ok) {
            return Err(OriginError::Host);
        }
        let port = match port {
            None => None,
            Some(digits) => {
                if digits.is_empty()
                    || digits.len() > 5
                    || !digits.bytes().all(|b| b.is_ascii_digit())
                {
                    return Err(OriginError::Port);
                }
                match digits.parse::<u32>() {
                    Ok(p) if p == default_port => None,
                    Ok(p @ 1..=65535) => Some(p),
                    _ => return Err(OriginError::Port),
                }
            }
        };
        Ok(Origin(match port {
            Some(port) => format!("{scheme}://{host}:{port}"),
            None => format!("{scheme}://{host}"),
        }))
    }

    /// The origin of a page's address: its path, query and fragment left out, so that a
    /// teacher may paste the course page's address as the browser shows it.
    ///
    /// ```
    /// use parallel_core::link::Origin;
    /// let origin = Origin::of_page("https://course.example.org/week1/tp.html?x=1#top").unwrap();
    /// assert_eq!(origin.as_str(), "https://course.example.org");
    /// ```
    pub fn of_page(address: &str) -> Result<Origin, OriginError> {
        let address = address.trim();
        let host_at = address.find("://").map_or(0, |i| i + 3);
        let end = address[host_at..]
            .find(['/', '?', '#'])
            .map_or(address.len(), |i| host_at + i);
        Origin::parse(&address[..end])
    }

    /// The origin as text, `https://course.example.org`.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether a message's origin (`MessageEvent.origin`, as the browser writes it) is this one.
    pub fn is(&self, origin: &str) -> bool {
        self.0 == origin
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, expected: Result<&str, OriginError>) {
        assert_eq!(
            Origin::parse(text).as_ref().map(Origin::as_str),
            expected.as_deref(),
            "{text:?}"
        );
    }

    #[test]
    fn origins_read_as_a_browser_writes_them() {
        check(
            "https://course.example.org",
            Ok("https://course.example.org"),
        );
        check(
            "  HTTPS://Course.Example.ORG  ",
            Ok("https://course.example.org"),
        );
        check("http://localhost:8080", Ok("http://localhost:8080"));
        check("http://127.0.0.1:80", Ok("http://127.0.0.1"));
        check("https://x.org:443", Ok("https://x.org"));
        check("https://x.org:80", Ok("https://x.org:80"));
        check("http://x.org:08080", Ok("http://x.org:8080"));
        check("https://xn--fiqs8s.cn", Ok("https://xn--fiqs8s.cn"));
    }

    #[test]
    fn what_is_not_an_origin_is_named() {
        use OriginError::*;
        check("", Err(Scheme));
        check("course.example.org", Err(Scheme));
        check("file:///home/t/lesson.html", Err(Scheme));
        check("javascript:alert(1)", Err(Scheme));
        check("ftp://x.org", Err(Scheme));
        check("https://", Err(Host));
        check("https://x..org", Err(Host));
        check("https://.x.org", Err(Host));
        check("https://user@x.org", Err(Host));
        check("https://x.org\"><script>", Err(Host));
        check("https://例子.cn", Err(Host));
        check("https://x.org,https://y.org", Err(Path));
        check("https://x.org,y.org", Err(Host));
        check("http://[::1]:8080", Err(Host));
        check("https://x.org:", Err(Port));
        check("https://x.org:0", Err(Port));
        check("https://x.org:65536", Err(Port));
        check("https://x.org:123456", Err(Port));
        check("https://x.org:8o", Err(Port));
        check("https://x.org:1:2", Err(Port));
        check("https://x.org/", Err(Path));
        check("https://x.org?a", Err(Path));
        check("https://x.org#a", Err(Path));
        check(&format!("https://{}.org", "a".repeat(400)), Err(TooLong));
        for error in [Scheme, Host, Port, Path, TooLong] {
            assert!(!error.to_string().is_empty());
        }
    }

    #[test]
    fn a_page_address_gives_its_origin() {
        for (address, origin) in [
            (
                "https://course.example.org/week1/tp.html",
                "https://course.example.org",
            ),
            ("http://localhost:9000/?lesson=3", "http://localhost:9000"),
            ("https://x.org#part-two", "https://x.org"),
            ("https://x.org", "https://x.org"),
        ] {
            assert_eq!(Origin::of_page(address).unwrap().as_str(), origin);
        }
        assert_eq!(
            Origin::of_page("course.example.org/week1"),
            Err(OriginError::Scheme)
        );
        assert_eq!(
            Origin::of_page("file:///lesson.html"),
            Err(OriginError::Scheme)
        );
    }
}
