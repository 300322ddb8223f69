//! Which content coding an answer is sent in, from the request's `Accept-Encoding`
//! (RFC 9110 §12.5.3): of the codings the host has ready, the one the client weighs
//! highest (brotli before gzip when it weighs them the same); identity when it accepts
//! none. Identity is never refused: every client can read it.

use axum::http::{HeaderMap, header};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Brotli,
    Gzip,
    Identity,
}

impl Encoding {
    /// The `Content-Encoding` value, or `None` for identity.
    pub fn header_value(self) -> Option<&'static str> {
        match self {
            Encoding::Brotli => Some("br"),
            Encoding::Gzip => Some("gzip"),
            Encoding::Identity => None,
        }
    }
}

/// The q-value the client gives each coding; `None` when it does not name it.
#[derive(Debug, Default, Clone, Copy)]
struct Weights {
    brotli: Option<f32>,
    gzip: Option<f32>,
    any: Option<f32>,
}

fn weights(headers: &HeaderMap) -> Weights {
    let mut weights = Weights::default();
    for value in headers.get_all(header::ACCEPT_ENCODING) {
        let Ok(value) = value.to_str() else { continue };
        for item in value.split(',') {
            let mut parts = item.split(';');
            let coding = parts.next().unwrap_or_default().trim();
            let q = parts
                .find_map(|p| {
                    let p = p.trim();
                    let (name, value) = p.split_once('=')?;
                    name.trim_end()
                        .eq_ignore_ascii_case("q")
                        .then(|| value.trim())
                })
                .map_or(Some(1.0), |q| {
                    q.parse::<f32>().ok().filter(|q| (0.0..=1.0).contains(q))
                });
            let Some(q) = q else { continue };
            let named = |name: &str| coding.eq_ignore_ascii_case(name);
            let slot = if named("br") {
                &mut weights.brotli
            } else if named("gzip") || named("x-gzip") {
                &mut weights.gzip
            } else if coding == "*" {
                &mut weights.any
            } else {
                continue;
            };
            *slot = Some(slot.map_or(q, |seen: f32| seen.max(q)));
        }
    }
    weights
}

/// The best coding for this client when both brotli and gzip are ready (built assets).
pub fn brotli_or_gzip(headers: &HeaderMap) -> Encoding {
    negotiate(headers, true, true)
}

/// Whether this client takes gzip, the one coding made per request.
pub fn takes_gzip(headers: &HeaderMap) -> bool {
    negotiate(headers, false, true) == Encoding::Gzip
}

/// The best of the codings on offer for this client.
fn negotiate(headers: &HeaderMap, brotli: bool, gzip: bool) -> Encoding {
    let w = weights(headers);
    let weight = |named: Option<f32>| named.or(w.any).unwrap_or(0.0);
    let mut best = (Encoding::Identity, 0.0);
    for (encoding, offered, weight) in [
        (Encoding::Brotli, brotli, weight(w.brotli)),
        (Encoding::Gzip, gzip, weight(w.gzip)),
    ] {
        if offered && weight > best.1 {
            best = (encoding, weight);
        }
    }
    best.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::accepting;

    fn best(value: &str) -> Encoding {
        negotiate(&accepting(value), true, true)
    }

    #[test]
    fn brotli_first_when_liked_as_much_as_gzip() {
        assert_eq!(best("gzip, deflate, br"), Encoding::Brotli);
        assert_eq!(best("br, gzip"), Encoding::Brotli);
    }

    #[test]
    fn q_values_order_the_codings() {
        assert_eq!(best("br;q=0.1, gzip"), Encoding::Gzip);
        assert_eq!(best("gzip;q=0.5, br;q=0.8"), Encoding::Brotli);
        assert_eq!(best("br;q=0, gzip"), Encoding::Gzip);
        assert_eq!(best("gzip;q=0"), Encoding::Identity);
        assert_eq!(best("*"), Encoding::Brotli);
        assert_eq!(best("*;q=0.5, br;q=0"), Encoding::Gzip);
    }

    #[test]
    fn no_header_or_nonsense_means_identity() {
        assert_eq!(negotiate(&HeaderMap::new(), true, true), Encoding::Identity);
        assert_eq!(best("compress, zstd;q=x"), Encoding::Identity);
        assert_eq!(
            best("br;q=2"),
            Encoding::Identity,
            "an out-of-range q is ignored"
        );
    }

    #[test]
    fn coding_names_are_case_insensitive_and_fields_add_up() {
        assert_eq!(best("GZIP"), Encoding::Gzip);
        assert_eq!(best("X-Gzip;q=0.5, Br;q=0.4"), Encoding::Gzip);
        let mut two_fields = accepting("br;q=0.2");
        two_fields.append(header::ACCEPT_ENCODING, "gzip".parse().unwrap());
        assert_eq!(negotiate(&two_fields, true, true), Encoding::Gzip);
    }

    #[test]
    fn the_weight_parameter_is_case_insensitive_too() {
        // RFC 9110 §12.4.2: "Q=0" refuses a coding as "q=0" does.
        assert_eq!(best("gzip;Q=0"), Encoding::Identity);
        assert_eq!(best("br;Q=0.1, gzip ; Q=0.9"), Encoding::Gzip);
    }

    #[test]
    fn only_what_is_on_offer_is_chosen() {
        assert_eq!(negotiate(&accepting("br"), false, true), Encoding::Identity);
        assert_eq!(
            negotiate(&accepting("br, gzip"), false, true),
            Encoding::Gzip
        );
    }
}
