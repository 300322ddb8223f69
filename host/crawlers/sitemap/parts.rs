//! How the sitemap is cut into parts: sitemaps.org allows at most 50,000 URLs and 50 MB
//! (52,428,800 bytes, uncompressed) in one file, and an index of at most 50,000 files.
//! The URLs are numbered route by route, page by page, language by language; a part is a
//! range of them. Each route says the most bytes one of its `<url>`s takes, so a part's
//! size is bounded before a byte of it is written.

use std::ops::Range;

/// The most a sitemap file may hold.
#[derive(Debug, Clone, Copy)]
pub(super) struct Bounds {
    pub urls: usize,
    pub bytes: usize,
}

/// The most files an index names.
const MOST_PARTS: usize = 50_000;

/// The protocol's bounds, the host's.
pub(super) const PROTOCOL: Bounds = Bounds {
    urls: 50_000,
    bytes: 52_428_800,
};

/// A run of URLs of one route: how many, and the most bytes one of them takes.
#[derive(Debug, Clone, Copy)]
pub(super) struct Run {
    pub urls: usize,
    pub most_bytes: usize,
}

/// The parts `runs` (in order) are cut into, each within `bounds` with its `frame` (the
/// bytes around its URLs) counted: ranges of the URLs' numbers, in order, none empty, one
/// at least. Fails when one URL cannot fit a part, or the parts would be more than an
/// index may name.
pub(super) fn split(
    runs: &[Run],
    frame: usize,
    bounds: Bounds,
) -> Result<Vec<Range<usize>>, String> {
    let mut parts = Vec::new();
    let (mut start, mut next, mut bytes) = (0, 0, frame);
    for run in runs {
        if run.urls > 0 && frame + run.most_bytes > bounds.bytes {
            return Err(format!(
                "one sitemap <url> may take {} bytes, more than a sitemap file holds ({})",
                run.most_bytes, bounds.bytes
            ));
        }
        let mut left = run.urls;
        while left > 0 {
            let room =
                (bounds.urls - (next - start)).min((bounds.bytes - bytes) / run.most_bytes.max(1));
            if room == 0 {
                parts.push(start..next);
                (start, bytes) = (next, frame);
                continue;
            }
            let taken = room.min(left);
            (next, bytes, left) = (next + taken, bytes + taken * run.most_bytes, left - taken);
        }
    }
    if next > start || parts.is_empty() {
        parts.push(start..next);
    }
    if parts.len() > MOST_PARTS {
        return Err(format!(
            "{} sitemap files, more than an index names ({MOST_PARTS})",
            parts.len()
        ));
    }
    Ok(parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: Bounds = Bounds {
        urls: 10,
        bytes: 1_000,
    };

    fn run(urls: usize, most_bytes: usize) -> Run {
        Run { urls, most_bytes }
    }

    #[test]
    fn what_fits_one_file_is_one_part() {
        assert_eq!(
            split(&[run(3, 100), run(0, 500), run(7, 50)], 100, SMALL).unwrap(),
            vec![0..10]
        );
        assert_eq!(split(&[], 100, SMALL).unwrap(), vec![0..0]);
    }

    #[test]
    fn a_part_holds_at_most_the_bounds_urls() {
        let parts = split(&[run(25, 1)], 0, SMALL).unwrap();
        assert_eq!(parts, [0..10, 10..20, 20..25]);
    }

    #[test]
    fn a_part_holds_at_most_the_bounds_bytes_with_its_frame() {
        // 100 bytes around, 300 a URL: three fit in 1,000.
        let parts = split(&[run(7, 300)], 100, SMALL).unwrap();
        assert_eq!(parts, [0..3, 3..6, 6..7]);
        // Runs of different sizes share a part as long as both bounds hold.
        let parts = split(&[run(2, 300), run(5, 100)], 100, SMALL).unwrap();
        assert_eq!(parts, [0..5, 5..7]);
        for part in &parts {
            assert!(part.len() <= SMALL.urls);
        }
    }

    #[test]
    fn a_url_larger_than_a_file_or_too_many_files_are_refused() {
        let error = split(&[run(1, 950)], 100, SMALL).unwrap_err();
        assert!(error.contains("950 bytes"), "{error}");
        let one = Bounds {
            urls: 1,
            bytes: 1_000,
        };
        let error = split(&[run(50_001, 1)], 0, one).unwrap_err();
        assert!(error.contains("50001 sitemap files"), "{error}");
    }

    #[test]
    fn every_url_is_in_exactly_one_part_in_order() {
        let runs = [
            run(13, 90),
            run(1, 10),
            run(40, 33),
            run(0, 999),
            run(5, 200),
        ];
        let parts = split(&runs, 17, SMALL).unwrap();
        let numbered: Vec<usize> = parts.iter().flat_map(Clone::clone).collect();
        assert_eq!(numbered, (0..59).collect::<Vec<_>>());
        assert!(parts.iter().all(|part| !part.is_empty()));
    }
}
