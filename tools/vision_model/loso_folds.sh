#!/bin/sh
# Train the leave-one-source-out fold models (bench/vision_loso.py reads them): for each photo source, a
# dice detector and photo mode's colour face model trained on that source only (every photo of it) and on
# rendered scenes.  Seeded, one thread; prints how long each step took.  Nothing here ships.
#
#   sh tools/vision_model/loso_folds.sh [OUT_DIR] [DETECTOR_STEPS] [FACE_EPOCHS]   # default var/loso, 400, 10
#
# PY is the project venv's python (the reader), TRAIN_PY one with the `train` extra (torch):
#   python -m venv var/tmp/trainvenv && var/tmp/trainvenv/bin/pip install -e '.[train]'
set -eu
cd "$(dirname "$0")/../.."
OUT="${1:-var/loso}"
STEPS="${2:-400}"
EPOCHS="${3:-10}"
PY="${PY:-.venv/bin/python}"
TRAIN_PY="${TRAIN_PY:-var/tmp/trainvenv/bin/python}"
for source in byler-topdown penlington-webcam; do
    mkdir -p "$OUT/$source"
    start=$(date +%s)
    "$PY" tools/vision_model/extract_boxes.py --source "$source" --out "$OUT/boxes_$source.npz"
    "$TRAIN_PY" tools/vision_model/train_detector.py --data "$OUT/boxes_$source.npz" --steps "$STEPS" \
        --out "$OUT/$source/dice_detector.onnx"
    mid=$(date +%s)
    "$PY" tools/vision_model/extract_photo_faces.py --source "$source" --detector "$OUT/$source/dice_detector.onnx" \
        --out "$OUT/$source/photo_faces.npz"
    "$TRAIN_PY" tools/vision_model/train_photo_faces.py --data "$OUT/$source/photo_faces.npz" \
        --epochs "$EPOCHS" --out "$OUT/$source/dice_face_photo.onnx"
    end=$(date +%s)
    echo "fold $source: detector $((mid - start)) s, face model $((end - mid)) s"
done
