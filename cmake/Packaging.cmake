# `cpack -G DEB` in the build directory: a Debian package of what `cmake --install` installs,
# under /usr, its binaries stripped. Depends lists the Debian packages of the shared libraries
# the programs link (Qt 6, QCustomPlot, libstdc++, ...), found by dpkg-shlibdeps (dpkg-dev).
set(VRAMPLAN_PACKAGE_MAINTAINER "vramplan developers <vramplan@users.noreply.github.com>"
    CACHE STRING "The Maintainer field of the Debian package")

set(CPACK_PACKAGE_NAME vramplan)
set(CPACK_PACKAGE_VENDOR "vramplan developers")
set(CPACK_PACKAGE_CONTACT "${VRAMPLAN_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
# Debian wants the extended description's lines within 80 columns.
set(CPACK_PACKAGE_DESCRIPTION
    "vramplan estimates GPU memory per device for training and fine-tuning
transformer models: parameters, gradients, optimizer states, activations,
logits and loss, temporary buffers and framework overhead, each traced to
named tensors and a formula. It reports the peak through one training step
and what PyTorch's allocator and nvidia-smi would show, for precision
recipes, optimizers, ZeRO/FSDP stages, offload, tensor, sequence, pipeline,
context and expert parallelism, recomputation, LoRA and QLoRA.

This package holds the planner window, vramplan, and the command line,
vramplan-cli.")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_GENERATOR DEB)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${VRAMPLAN_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${PROJECT_HOMEPAGE_URL}")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The Simplified Chinese interface is compiled in; Qt's own translations (standard buttons and
# dialogs) and a Chinese font come from these (docs/languages.md).
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "qt6-translations-l10n")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "fonts-noto-cjk | fonts-wqy-microhei")

include(CPack)
