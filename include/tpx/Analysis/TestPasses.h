//===- TestPasses.h - passes that print analysis results for lit tests ----===//
#ifndef TPX_ANALYSIS_TESTPASSES_H
#define TPX_ANALYSIS_TESTPASSES_H

namespace tpx {

/// Registers `test-print-axis-info` and `test-print-shared-allocation`.
void registerAnalysisTestPasses();
/// Registers `test-print-shared-allocation` (called by the above).
void registerSharedAllocationTestPass();

} // namespace tpx

#endif // TPX_ANALYSIS_TESTPASSES_H
