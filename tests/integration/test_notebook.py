"""The tutorial notebook (examples/tutorial.ipynb) runs without error, with the kernel of this environment,
and is committed without outputs."""
import json
import sys

import pytest
from ..conftest import ROOT

NOTEBOOK = ROOT / "examples" / "tutorial.ipynb"


def test_notebook_is_committed_without_outputs():
    nb = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert len(code) >= 6
    assert all(c["outputs"] == [] and c["execution_count"] is None for c in code)


@pytest.mark.slow
@pytest.mark.acceptance
def test_tutorial_notebook_runs(tmp_path):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager

    # a kernel spec naming this interpreter: never a `python` found elsewhere on PATH
    spec_dir = tmp_path / "kernels" / "cbdp-sym-test"
    spec_dir.mkdir(parents=True)
    (spec_dir / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "cbdp-sym test", "language": "python"}))
    ksm = KernelSpecManager(kernel_dirs=[str(tmp_path / "kernels")])
    km = KernelManager(kernel_name="cbdp-sym-test", kernel_spec_manager=ksm)
    nb = nbformat.read(str(NOTEBOOK), as_version=4)
    # run from the repository root so that the kernel imports this checkout's cbdp_sym
    client = nbclient.NotebookClient(nb, km=km, timeout=300, kernel_name="cbdp-sym-test",
                                     resources={"metadata": {"path": str(NOTEBOOK.parent.parent)}})
    client.execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    rich = [o for o in outputs if o.get("output_type") == "execute_result"]
    assert any("text/markdown" in o["data"] and "**verified**" in o["data"]["text/markdown"] for o in rich)
    assert any("text/latex" in o["data"] and "\\begin{aligned}" in o["data"]["text/latex"] for o in rich)
    assert any("**refuted**" in o["data"].get("text/markdown", "") for o in rich)
