"""Join photo-mode face models trained with different seeds into one ONNX file that averages them.

The joined graph feeds the same input to every member, takes each member's softmax, averages the
probabilities and outputs their logarithm as ``logits``: the runtime's own softmax of that gives the
averaged probabilities back exactly, so ``drivers.vision.facemodel.FaceModel`` loads the file like any
single model (cv2.dnn, no code change).  Developer machine only: needs the ``onnx`` package.

    /work/trainvenv/bin/python tools/vision_model/combine_photo_models.py A.onnx B.onnx --out J.onnx

Checks that cv2.dnn's probabilities from the joined file equal the mean of the members' own (at most
1e-4 apart) on random faces, and exits 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, compose, helper

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from drivers.vision.facemodel import PHOTO_SIDE, FaceModel  # noqa: E402


def combine(paths: list[Path]) -> onnx.ModelProto:
    """One graph: input ``face``, output ``logits`` = log(mean of the members' softmax)."""
    members = []
    for k, path in enumerate(paths):
        model = onnx.load(str(path))
        members.append(compose.add_prefix(model, prefix=f"m{k}_"))
    graph_nodes, inits, value_info = [], [], []
    probs = []
    for k, m in enumerate(members):
        for node in m.graph.node:
            node.input[:] = ["face" if name == f"m{k}_face" else name for name in node.input]
            graph_nodes.append(node)
        inits.extend(m.graph.initializer)
        value_info.extend(m.graph.value_info)
        probs.append(f"m{k}_probs")
        graph_nodes.append(helper.make_node("Softmax", [f"m{k}_logits"], [probs[-1]], axis=1))
    total = probs[0]
    for k, name in enumerate(probs[1:], start=1):
        graph_nodes.append(helper.make_node("Add", [total, name], [f"sum{k}"]))
        total = f"sum{k}"
    inits.append(helper.make_tensor("share", TensorProto.FLOAT, [], [1.0 / len(probs)]))
    graph_nodes.append(helper.make_node("Mul", [total, "share"], ["mean_probs"]))
    graph_nodes.append(helper.make_node("Log", ["mean_probs"], ["logits"]))
    first = onnx.load(str(paths[0]))
    graph = helper.make_graph(graph_nodes, "photo_face_ensemble", list(first.graph.input),
                              list(first.graph.output), inits, value_info=value_info)
    joined = helper.make_model(graph, opset_imports=list(first.opset_import), producer_name="combine_photo_models")
    joined.ir_version = first.ir_version
    onnx.checker.check_model(joined)
    return joined


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", type=Path, nargs="+")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--side", type=int, default=PHOTO_SIDE,
                        help="the members' input side, for the check (train_photo_faces.py --side)")
    args = parser.parse_args()
    joined = combine(args.models)
    args.out.write_bytes(joined.SerializeToString())
    faces = np.random.default_rng(0).integers(0, 256, (64, args.side, args.side, 3), dtype=np.uint8)
    mean = np.mean([FaceModel(p, args.side, True, 1).probabilities(faces) for p in args.models], axis=0)
    got = FaceModel(args.out, args.side, True, 1).probabilities(faces)
    diff = float(np.abs(got - mean).max())
    print(json.dumps({"members": len(args.models), "onnx_bytes": args.out.stat().st_size,
                      "cv2_joined_vs_mean_max_abs_diff": diff}))
    if diff > 1e-4:
        print(f"the joined model and the members' mean disagree by {diff}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
