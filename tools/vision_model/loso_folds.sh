#!/bin/sh
# Train the leave-one-source-out fold models (bench/vision_loso.py reads them): for each photo source, a
# dice detector and photo mode's colour face model trained on that source only (every photo of it) and on
# rendered scenes.  Seeded, one thread; prints how long each step took.  Nothing here ships.
#
#   sh tools/vision_model/loso_folds.sh [OUT_DIR] [DETECTOR_STEPS] [FACE_EPOCHS]   # default var/loso, 400, 10
#   RECIPE=L1 sh tools/vision_model/loso_folds.sh var/loso1 400 10   # candidate L1 (docs/devices/vision.md)
#
# RECIPE=L1 widens the training (candidate L1): the detector also on styled throws (synth_styles: half of the
# rendered scenes, which are 35 % of the crops) with scale 0.45-1.6, perspective, motion blur and JPEG
# (--styled 0.5 --wide --synthetic 0.35); the face model's data also holds 300 styled throws' dice
# (--styled-scenes 300) and it trains with strong() augmentation (--strong).  Both steps of a fold run one
# after the other; the two folds may run side by side (FOLDS="byler-topdown" picks one).
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
DET_FLAGS=""
FACE_DATA_FLAGS=""
FACE_FLAGS=""
if [ "${RECIPE:-L0}" = "L1" ]; then
    DET_FLAGS="--styled 0.5 --wide --synthetic 0.35"
    FACE_DATA_FLAGS="--styled-scenes 300"
    FACE_FLAGS="--strong"
fi
for source in ${FOLDS:-byler-topdown penlington-webcam}; do
    mkdir -p "$OUT/$source"
    start=$(date +%s)
    "$PY" tools/vision_model/extract_boxes.py --source "$source" --out "$OUT/boxes_$source.npz"
    "$TRAIN_PY" tools/vision_model/train_detector.py --data "$OUT/boxes_$source.npz" --steps "$STEPS" \
        --out "$OUT/$source/dice_detector.onnx" $DET_FLAGS
    mid=$(date +%s)
    "$PY" tools/vision_model/extract_photo_faces.py --source "$source" --detector "$OUT/$source/dice_detector.onnx" \
        --out "$OUT/$source/photo_faces.npz" $FACE_DATA_FLAGS
    "$TRAIN_PY" tools/vision_model/train_photo_faces.py --data "$OUT/$source/photo_faces.npz" \
        --epochs "$EPOCHS" --out "$OUT/$source/dice_face_photo.onnx" $FACE_FLAGS
    end=$(date +%s)
    echo "fold $source: detector $((mid - start)) s, face model $((end - mid)) s"
done
