//! Assets in a folder, read whole into memory at start-up: a build folder's
//! (`--app-build DIR`, its `assets/`), or the assets of earlier builds
//! (`--previous-assets DIR`), which `--write-assets DIR` writes from a binary's own. Each
//! `NAME` may have its `NAME.gz` and `NAME.br` beside it (as `--write-assets` writes them);
//! a missing gzip is made when the asset is read, a missing brotli is not (gzip is sent
//! instead).
//!
//! `--write-assets` also writes `builds/ID`, the names of that build's assets, one a line:
//! the folder holds many builds' files side by side, and that list is how an asset is known
//! to be build ID's (its purge keys name it). Each file is written under a hidden name and
//! renamed, the list first, so a replica never reads half a file or an asset before its list.

use std::collections::HashMap;
use std::hash::BuildHasher as _;
use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, RwLock};

use axum::body::Bytes;
use flate2::Compression;
use flate2::write::GzEncoder;

use super::ASSETS;
use crate::content_type::content_type;
use crate::purge_keys::{build_id, is_build_id};

/// What a folder may hold, at most: its assets are all in memory.
const MAX_FILES: usize = 20_000;
const MAX_BYTES: u64 = 512 << 20;

/// The folder's lists of each build's assets.
const BUILDS: &str = "builds";
/// What one list may hold, at most.
const MAX_LIST_BYTES: u64 = 1 << 20;

/// One asset read from a folder, in its codings.
pub struct Loaded {
    pub content_type: &'static str,
    pub raw: Bytes,
    pub gzip: Bytes,
    pub brotli: Option<Bytes>,
    /// The IDs of the builds whose list names it (sorted; none in a folder without lists).
    pub builds: Vec<String>,
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
        let mut builds = builds_of(dir)?;
        let mut by_name = HashMap::new();
        for (name, raw) in &files {
            if name.ends_with(".gz") || name.ends_with(".br") {
                continue;
            }
            let gzip = files.get(&format!("{name}.gz")).cloned();
            let brotli = files.get(&format!("{name}.br")).cloned();
            let builds = builds.remove(name).unwrap_or_default();
            by_name.insert(
                name.clone(),
                Arc::new(loaded(name, raw.clone(), gzip, brotli, builds)),
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
        // Its list was written before it: read the lists again for its builds.
        let lists = dir.clone();
        let builds = tokio::task::spawn_blocking(move || builds_of(&lists))
            .await
            .ok()
            .and_then(Result::ok)
            .and_then(|mut builds| builds.remove(name))
            .unwrap_or_default();
        let asset = Arc::new(loaded(name, raw, gzip, brotli, builds));
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
fn loaded(
    name: &str,
    raw: Bytes,
    gzip: Option<Bytes>,
    brotli: Option<Bytes>,
    builds: Vec<String>,
) -> Loaded {
    Loaded {
        content_type: content_type(name),
        gzip: gzip.unwrap_or_else(|| gzip_of(&raw).into()),
        raw,
        brotli,
        builds,
    }
}

/// From the folder's lists (`builds/ID`): the builds of each asset named in one, their IDs
/// sorted. A folder without lists has none; a file there whose name is not an ID, and a
/// line that is not an asset's name, are left aside.
fn builds_of(dir: &Path) -> Result<HashMap<String, Vec<String>>, String> {
    let lists = dir.join(BUILDS);
    let fail = |e: std::io::Error| format!("{}: {e}", lists.display());
    let entries = match std::fs::read_dir(&lists) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(HashMap::new()),
        Err(e) => return Err(fail(e)),
    };
    let mut ids = Vec::new();
    for entry in entries {
        let entry = entry.map_err(fail)?;
        if let Ok(id) = entry.file_name().into_string()
            && is_build_id(&id)
            && entry.file_type().map_err(fail)?.is_file()
        {
            ids.push(id);
        }
    }
    ids.sort();
    let mut builds: HashMap<String, Vec<String>> = HashMap::new();
    for id in ids {
        let path = lists.join(&id);
        let mut text = String::new();
        std::fs::File::open(&path)
            .and_then(|file| file.take(MAX_LIST_BYTES).read_to_string(&mut text))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        for name in text.lines().filter(|name| plain(name)) {
            builds.entry(name.to_string()).or_default().push(id.clone());
        }
    }
    Ok(builds)
}

fn gzip_of(raw: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::best());
    encoder.write_all(raw).expect("writing to memory");
    encoder.finish().expect("writing to memory")
}

/// Writes this binary's own assets into `dir` (made if missing), each with its `.gz` and
/// `.br`, and first their list, `builds/ID` (this build's ID); how many.
pub fn write_embedded(dir: &Path) -> Result<usize, String> {
    let lists = dir.join(BUILDS);
    std::fs::create_dir_all(&lists).map_err(|e| format!("{}: {e}", lists.display()))?;
    let list: String = ASSETS
        .iter()
        .map(|asset| format!("{}\n", asset.name))
        .collect();
    write_whole(&lists, &embedded_build_id(), list.as_bytes())?;
    for asset in ASSETS {
        write_whole(dir, asset.name, asset.raw)?;
        write_whole(dir, &format!("{}.gz", asset.name), asset.gzip)?;
        write_whole(dir, &format!("{}.br", asset.name), asset.brotli)?;
    }
    Ok(ASSETS.len())
}

/// The ID of the build this binary embeds, as [`crate::Host::start`] names it when it
/// serves that build.
fn embedded_build_id() -> String {
    build_id(crate::manifest::MANIFEST.as_bytes(), super::SERVER_SNAPSHOT)
}

/// Writes `dir/name` under a hidden name (never read as an asset), then renames it: a
/// reader sees no file or the whole one. The hidden name is this writer's own: pods
/// writing the same release into a shared folder at once (each its own PID 1) never write
/// into one file.
fn write_whole(dir: &Path, name: &str, bytes: &[u8]) -> Result<(), String> {
    static WRITER: LazyLock<u64> =
        LazyLock::new(|| std::hash::RandomState::new().hash_one(std::process::id()));
    let path = dir.join(name);
    let hidden = dir.join(format!(".{name}.{:016x}.part", *WRITER));
    std::fs::write(&hidden, bytes)
        .and_then(|()| std::fs::rename(&hidden, &path))
        .map_err(|e| {
            let _ = std::fs::remove_file(&hidden);
            format!("{}: {e}", path.display())
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_folder_written_from_the_binary_reads_back_whole() {
        let dir = std::env::temp_dir().join(format!("bilingue-assets-{}", std::process::id()));
        let written = write_embedded(&dir).unwrap();
        let list = std::fs::read_to_string(dir.join("builds").join(embedded_build_id())).unwrap();
        let names: Vec<&str> = ASSETS.iter().map(|asset| asset.name).collect();
        assert_eq!(list.lines().collect::<Vec<_>>(), names, "this build's list");
        let leftovers = std::fs::read_dir(&dir)
            .unwrap()
            .filter(|entry| !plain(&entry.as_ref().unwrap().file_name().to_string_lossy()))
            .count();
        assert_eq!(leftovers, 0, "every file renamed into place");
        std::fs::write(dir.join(".hidden"), "x").unwrap();
        std::fs::write(dir.join("extra.js"), "export {};").unwrap();
        let folder = Folder::read(&dir, true).unwrap();
        assert_eq!(folder.len(), written + 1, "every asset, and the extra file");
        // A watched folder serves what was written into it after start-up, and knows its
        // build by the list written before it.
        std::fs::write(dir.join("builds/ffff00"), "next-build.js\n../x\n").unwrap();
        std::fs::write(dir.join("builds/Not-An-Id"), "next-build.js\n").unwrap();
        std::fs::write(dir.join("next-build.js"), "export {};").unwrap();
        let next = folder.find("next-build.js").await.unwrap();
        assert_eq!(next.builds, ["ffff00"]);
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
            assert_eq!(loaded.builds, [embedded_build_id()], "{}", asset.name);
        }
        let extra = folder.find("extra.js").await.unwrap();
        assert!(extra.builds.is_empty(), "no list names it");
        assert_eq!(
            crate::test_support::gunzip(&extra.gzip),
            b"export {};".to_vec()
        );
        assert!(extra.brotli.is_none());
        assert!(folder.find(".hidden").await.is_none());
        assert!(!plain("../x.js") && !plain("a/b.js") && plain("client-AB12.js"));
    }
}
