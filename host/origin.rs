//! The address visitors reach the site at (`--public-url`): every absolute URL the host
//! writes (canonical, alternates, sitemap, robots.txt) starts with it, and never with a
//! request's `Host` or `X-Forwarded-*`, which a client chooses, and which a cached page
//! would otherwise carry from one visitor to the next.

use std::fmt;

/// `scheme://host[:port]`, nothing after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    text: String,
    https: bool,
    /// `host[:port]`, as visitors write it.
    authority: String,
}

impl Origin {
    /// Reads `--public-url`; the error shows a valid value.
    pub fn parse(value: &str) -> Result<Self, String> {
        let refuse = |why: &str| {
            Err(format!(
                "--public-url {value:?}: {why}; give the address visitors reach the site at, \
                 as scheme://host[:port], e.g. https://www.example.org"
            ))
        };
        let Ok(url) = reqwest::Url::parse(value) else {
            return refuse("not a URL");
        };
        let https = match url.scheme() {
            "https" => true,
            "http" => false,
            _ => return refuse("only http:// and https:// are served"),
        };
        let Some(host) = url.host_str() else {
            return refuse("no host");
        };
        if let Some(url::Host::Domain(name)) = url.host()
            && !is_host_name(name)
        {
            // It would reach headers and files (Link, robots.txt) as it is.
            return refuse("the host is not a host name (letters, digits, hyphens and dots)");
        }
        if !url.username().is_empty() || url.password().is_some() {
            return refuse("no user or password belongs in it");
        }
        if url.path() != "/" || url.query().is_some() || url.fragment().is_some() {
            return refuse("no path, query or fragment belongs in it");
        }
        let authority = match url.port() {
            Some(port) => format!("{host}:{port}"),
            None => host.to_string(),
        };
        Ok(Self {
            text: format!("{}://{authority}", url.scheme()),
            https,
            authority,
        })
    }

    /// Without `--public-url`: the host's own port on localhost.
    pub fn localhost(port: u16) -> Self {
        Self::parse(&format!("http://localhost:{port}")).expect("a valid origin")
    }

    /// `path` (starting with `/`) as an absolute URL.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.text)
    }

    pub fn scheme(&self) -> &'static str {
        if self.https { "https" } else { "http" }
    }

    pub fn authority(&self) -> &str {
        &self.authority
    }
}

/// A DNS host name: labels of ASCII letters, digits and hyphens (not at either end), at most
/// 63 bytes each, 253 in all (RFC 1123; internationalised names arrive in their `xn--` form).
fn is_host_name(name: &str) -> bool {
    let name = name.strip_suffix('.').unwrap_or(name);
    !name.is_empty()
        && name.len() <= 253
        && name.split('.').all(|label| {
            (1..=63).contains(&label.len())
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
        })
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::Origin;

    #[test]
    fn an_origin_is_a_scheme_a_host_and_maybe_a_port() {
        let origin = Origin::parse("https://www.example.org").unwrap();
        assert_eq!(origin.url("/fr/"), "https://www.example.org/fr/");
        assert_eq!(
            Origin::parse("http://Example.ORG:8080/").unwrap().url("/"),
            "http://example.org:8080/"
        );
        assert_eq!(
            Origin::localhost(3000).url("/en/x"),
            "http://localhost:3000/en/x"
        );
        assert_eq!(
            Origin::parse("https://bücher.example").unwrap().url("/"),
            "https://xn--bcher-kva.example/"
        );
        assert_eq!(
            Origin::parse("http://[::1]:8080").unwrap().url("/"),
            "http://[::1]:8080/"
        );
    }

    #[test]
    fn anything_else_is_refused_with_a_valid_example() {
        for value in [
            "www.example.org",
            "ftp://example.org",
            "https://example.org/site",
            "https://example.org/?a=1",
            "https://example.org/#top",
            "https://user:pw@example.org",
            "https://",
            "",
            "http://x\"y.example",
            "http://x<y.example",
            "http://x_y.example",
            "http://-x.example",
            "http://x..example",
        ] {
            let error = Origin::parse(value).unwrap_err();
            assert!(
                error.contains("e.g. https://www.example.org"),
                "{value}: {error}"
            );
        }
    }
}
