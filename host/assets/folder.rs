//! Assets in a folder, read whole into memory at start-up: a build folder's
//! (`--app-build DIR`, its `assets/`), or the assets of earlier builds
//! (`--previous-assets DIR`), which `--write-assets DIR` writes from a binary's own. Each
//! `NAME` may have its `NAME.gz` and `NAME.br` beside it (as `--write-assets` writes them);
//! a missing gzip is made when the asset is read, a missing brotli is not (gzip is sent
//! instead).

use std::collections::HashMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

use axum::body::Bytes;
use flate2::Compression;
use flate2::write::GzEncoder;

use super::ASSETS;
use crate::content_type::content_type;

/// What a folder may hold, at most: its assets are all in memory.
const MAX_FILES: usize = 20_000;
const MAX_BYTES: u64 = 512 << 20;

/// One asset read from a folder, in its codings.
pub struct Loaded {
    pub content_type: &'static str,
    pub raw: Bytes,
    pub gzip: Bytes,
    pub brotli: Option<Bytes>,
}

/// The assets of a folder, by name. One that is watched (`--previous-assets`) is looked
/// in again for a name it did not have, so that the next build's assets written into it
/// during a rolling deploy are served by the replicas of the build before.
#[derive(Default)]
pub struct Folder {
    watched: Option<PathBuf>,
    by_name: RwLock<HashMap<String, Arc<Loaded>>>,
    bytes: AtomicU64,
}

/// A name esbuild writes: no separators, no leading dot.
pub fn plain(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 255
        && !name.starts_with('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_'))
}

impl Folder {
    /// Reads every plain file of `dir` (sub-folders and other names are left aside); a
    /// `watched` folder is looked in again on a miss.
    pub fn read(dir: &Path, watched: bool) -> Result<Self, String> {
        let fail = |e: std::io::Error| format!("{}: {e}", dir.display());
        let mut files: HashMap<String, Bytes> = HashMap::new();
        let mut total = 0u64;
        for entry in std::fs::read_dir(dir).map_err(fail)? {
            let entry = entry.map_err(fail)?;
            let Ok(name) = entry.file_name().into_string() else {
                continue;
            };
            if !plain(&name) || !entry.file_type().map_err(fail)?.is_file() {
                continue;
            }
            total += entry.metadata().map_err(fail)?.len();
            if files.len() >= MAX_FILES || total > MAX_BYTES {
                return Err(format!(
                    "{}: more than {MAX_FILES} files or {} MiB of assets",
                    dir.display(),
                    MAX_BYTES >> 20
                ));
            }
            let bytes = std::fs::read(entry.path()).map_err(fail)?;
            files.insert(name, bytes.into());
        }
        let mut by_name = HashMap::new();
        for (name, raw) in &files {
            if name.ends_with(".gz") || name.ends_with(".br") {
                continue;
            }
            let gzip = files.get(&format!("{name}.gz")).cloned();
            let brotli = files.get(&format!("{name}.br")).cloned();
            by_name.insert(
                name.clone(),
                Arc::new(loaded(name, raw.clone(), gzip, brotli)),
            );
        }
        Ok(Self {
            watched: watched.then(|| dir.to_path_buf()),
            by_name: RwLock::new(by_name),
            bytes: AtomicU64::new(total),
        })
    }

    /// The asset named `name`, from memory, or else from the watched folder (then kept).
    pub async fn find(&self, name: &str) -> Option<Arc<Loaded>> {
        if let Some(found) = self.by_name.read().expect("assets lock").get(name) {
            return Some(found.clone());
        }
        let dir = self.watched.as_ref()?;
        if !plain(name) || name.ends_with(".gz") || name.ends_with(".br") {
            return None;
        }
        let raw: Bytes = tokio::fs::read(dir.join(name)).await.ok()?.into();
        let beside = |coding: &str| dir.join(format!("{name}.{coding}"));
        let gzip = tokio::fs::read(beside("gz")).await.ok().map(Bytes::from);
        let brotli = tokio::fs::read(beside("br")).await.ok().map(Bytes::from);
        let size = (raw.len()
            + gzip.as_ref().map_or(0, Bytes::len)
            + brotli.as_ref().map_or(0, Bytes::len)) as u64;
        let asset = Arc::new(loaded(name, raw, gzip, brotli));
        // Within the memory bound, it is kept; past it, served from the disk each time.
        let mut by_name = self.by_name.write().expect("assets lock");
        if by_name.len() < MAX_FILES && self.bytes.load(Ordering::Relaxed) + size <= MAX_BYTES {
            self.bytes.fetch_add(size, Ordering::Relaxed);
            by_name.insert(name.to_string(), asset.clone());
        }
        Some(asset)
    }

    pub fn len(&self) -> usize {
        self.by_name.read().expect("assets lock").len()
    }
}

/// An asset in its codings; a missing gzip is made now.
fn loaded(name: &str, raw: Bytes, gzip: Option<Bytes>, brotli: Option<Bytes>) -> Loaded {
    Loaded {
        content_type: content_type(name),
        gzip: gzip.unwrap_or_else(|| gzip_of(&raw).into()),
        raw,
        brotli,
    }
}

fn gzip_of(raw: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::best());
    encoder.write_all(raw).expect("writing to memory");
    encoder.finish().expect("writing to memory")
}

/// Writes this binary's own assets into `dir` (made if missing), each with its `.gz` and
/// `.br`; how many.
pub fn write_embedded(dir: &Path) -> Result<usize, String> {
    let fail = |e: std::io::Error| format!("{}: {e}", dir.display());
    std::fs::create_dir_all(dir).map_err(fail)?;
    for asset in ASSETS {
        std::fs::write(dir.join(asset.name), asset.raw).map_err(fail)?;
        std::fs::write(dir.join(format!("{}.gz", asset.name)), asset.gzip).map_err(fail)?;
        std::fs::write(dir.join(format!("{}.br", asset.name)), asset.brotli).map_err(fail)?;
    }
    Ok(ASSETS.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_folder_written_from_the_binary_reads_back_whole() {
        let dir = std::env::temp_dir().join(format!("bilingue-assets-{}", std::process::id()));
        let written = write_embedded(&dir).unwrap();
        std::fs::write(dir.join(".hidden"), "x").unwrap();
        std::fs::write(dir.join("extra.js"), "export {};").unwrap();
        let folder = Folder::read(&dir, true).unwrap();
        assert_eq!(folder.len(), written + 1, "every asset, and the extra file");
        // A watched folder serves what was written into it after start-up.
        std::fs::write(dir.join("next-build.js"), "export {};").unwrap();
        assert!(folder.find("next-build.js").await.is_some());
        assert!(
            Folder::read(&dir, false)
                .unwrap()
                .find("nowhere.js")
                .await
                .is_none()
        );
        let _ = std::fs::remove_dir_all(&dir);
        assert!(
            folder.find("next-build.js").await.is_some(),
            "kept in memory"
        );
        assert!(folder.find("../etc/passwd").await.is_none());
        for asset in ASSETS {
            let loaded = folder.find(asset.name).await.unwrap();
            assert_eq!(&loaded.raw[..], asset.raw);
            assert_eq!(&loaded.gzip[..], asset.gzip);
            assert_eq!(loaded.brotli.as_deref(), Some(asset.brotli));
        }
        let extra = folder.find("extra.js").await.unwrap();
        assert_eq!(
            crate::test_support::gunzip(&extra.gzip),
            b"export {};".to_vec()
        );
        assert!(extra.brotli.is_none());
        assert!(folder.find(".hidden").await.is_none());
        assert!(!plain("../x.js") && !plain("a/b.js") && plain("client-AB12.js"));
    }
}
