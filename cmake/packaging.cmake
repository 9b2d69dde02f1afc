# What every installed tree carries besides the programs (the README and the fonts' licence),
# and the .deb that CPack makes of it (`cpack -G DEB` in the build folder). The binaries link cudart statically and open CUPTI,
# NVRTC, NCCL and NVML at run time, so the package needs no CUDA package to start; the Qt and
# giflib libraries it links are found by dpkg-shlibdeps.
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES resources/fonts/LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR} RENAME fonts-LICENSE)

set(CPACK_PACKAGE_NAME reductionlab)
set(CPACK_PACKAGE_VENDOR "ReductionLab")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Runs, measures and animates CUDA parallel-reduction kernels on a real GPU")
set(CPACK_PACKAGE_CONTACT "ReductionLab developers")
set(CPACK_PACKAGE_INSTALL_DIRECTORY reductionlab)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Without them the app starts and says why: NVIDIA's driver for any GPU work, fonts for text.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fonts-dejavu-core")
include(CPack)
