"""The distributed runners give the bytes of one replay: the Dask runner on a two-worker
LocalCluster, and the Slurm array script and the Kubernetes Indexed Job commands run here stage by
stage with the index variables a scheduler would set."""
import os
import pathlib
import subprocess
import sys

import pytest
import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Distributed"))


def replay_once(binary, capture, output, *args):
    subprocess.run([binary, "replay", str(capture), "-o", str(output), "--quiet", *args], check=True, capture_output=True)
    return output.read_bytes()


@pytest.fixture(scope="module")
def capture(repo_root):
    return repo_root / "Captures" / "sample"


def test_dask_two_worker_cluster_gives_the_bytes_of_one_replay(tmp_path, pointpaint_bin, capture):
    from dask.distributed import Client, LocalCluster
    from pointpaint_dask import run

    expected = replay_once(pointpaint_bin, capture, tmp_path / "one.ply", "--accumulate", "latest", "--frames", "..<16")
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        assert len(client.nthreads()) == 2
        timings = run(str(capture), tmp_path / "dask.ply", shards=5, client=client, binary=pointpaint_bin,
                      replay_args=["--accumulate", "latest", "--frames", "..<16"], log=lambda *_: None)
        assert timings["regions"] == 2
        assert (tmp_path / "dask.ply").read_bytes() == expected
        # A failing step reports pointpaint's one line.
        with pytest.raises(RuntimeError, match="--shard|no frames|expected"):
            run(str(capture), tmp_path / "bad.ply", shards=2, client=client, binary=pointpaint_bin,
                replay_args=["--frames", "500.."], log=lambda *_: None)
    assert not any(p.name.startswith(".pointpaint-dask-") for p in tmp_path.iterdir()), "work directory removed"


def stage_env(tmp_path, capture, binary, **extra):
    env = dict(os.environ, CAPTURE=str(capture), WORKDIR=str(tmp_path / "work"), SHARDS="3", REGIONS="2",
               OUTPUT=str(tmp_path / "out" / "cloud.las"), REPLAY_ARGS="--voxel-size 0.02 --frames ..<12", OUTPUT_ARGS="")
    env["PATH"] = str(pathlib.Path(binary).parent) + os.pathsep + env["PATH"]
    env.update(extra)
    return env


def test_slurm_array_script_gives_the_bytes_of_one_replay(tmp_path, pointpaint_bin, capture):
    script = ROOT / "Distributed" / "slurm" / "pointpaint.sbatch"
    expected = replay_once(pointpaint_bin, capture, tmp_path / "one.las", "--voxel-size", "0.02", "--frames", "..<12")
    (tmp_path / "out").mkdir()
    for stage, count in (("replay", 3), ("merge", 2), ("final", 1)):
        for index in range(count):
            env = stage_env(tmp_path, capture, pointpaint_bin, STAGE=stage)
            if stage != "final":
                env["SLURM_ARRAY_TASK_ID"] = str(index)
            subprocess.run(["bash", str(script)], env=env, check=True, capture_output=True)
    assert (tmp_path / "out" / "cloud.las").read_bytes() == expected
    # A merge stage with a shard missing says so instead of merging what it finds.
    (tmp_path / "work" / "part-1.ppstore").unlink()
    env = stage_env(tmp_path, capture, pointpaint_bin, STAGE="merge", SLURM_ARRAY_TASK_ID="0")
    failed = subprocess.run(["bash", str(script)], env=env, capture_output=True, text=True)
    assert failed.returncode != 0 and "missing" in failed.stderr and "part-1.ppstore" in failed.stderr


def test_kubernetes_indexed_jobs_give_the_bytes_of_one_replay(tmp_path, pointpaint_bin, capture):
    manifests = sorted((ROOT / "Distributed" / "kubernetes").glob("*.yaml"))
    assert [m.name for m in manifests] == ["1-replay.yaml", "2-merge.yaml", "3-final.yaml"]
    expected = replay_once(pointpaint_bin, capture, tmp_path / "one.ply", "--voxel-size", "0.02", "--frames", "..<12")
    local = {"CAPTURE": str(capture), "WORKDIR": str(tmp_path / "work"), "OUTPUT": str(tmp_path / "out" / "cloud.ply"),
             "SHARDS": "3", "REGIONS": "2", "REPLAY_ARGS": "--voxel-size 0.02 --frames ..<12"}
    for manifest in manifests:
        (job,) = yaml.safe_load_all(manifest.read_text())
        assert job["kind"] == "Job" and job["apiVersion"] == "batch/v1"
        spec = job["spec"]
        indexed = spec.get("completionMode") == "Indexed"
        assert indexed == (manifest.name != "3-final.yaml")
        (container,) = spec["template"]["spec"]["containers"]
        env = {e["name"]: e["value"] for e in container["env"]}
        # The manifest's counts agree with each other; run it here with the test's.
        if "SHARDS" in env and indexed and manifest.name == "1-replay.yaml":
            assert str(spec["completions"]) == env["SHARDS"]
        if manifest.name == "2-merge.yaml":
            assert str(spec["completions"]) == env["REGIONS"]
        env.update({k: v for k, v in local.items() if k in env})
        count = int(env["SHARDS"] if manifest.name == "1-replay.yaml" else env.get("REGIONS", "1")) if indexed else 1
        for index in range(count):
            run_env = dict(os.environ, **env)
            run_env["PATH"] = str(pathlib.Path(pointpaint_bin).parent) + os.pathsep + run_env["PATH"]
            if indexed:
                run_env["JOB_COMPLETION_INDEX"] = str(index)
            subprocess.run(container["command"] + container["args"], env=run_env, check=True, capture_output=True)
    assert (tmp_path / "out" / "cloud.ply").read_bytes() == expected
