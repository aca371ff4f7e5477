//===- HsacoEmitter.cpp - AMDGCN assembly -> hsaco ------------------------===//
//
// The `hsaco` stage: the amdgcn stage's text (or its override) is assembled
// in process by the AMDGPU backend's assembler into a relocatable ELF
// object, which ld.lld links into the shared object the HSA runtime loads
// (hipModuleLoadData). The kernels' resources come from the hsaco's
// metadata note.
//
//===----------------------------------------------------------------------===//
#include "AMDGPUTargetInit.h"
#include "tpx/Target/AMD/AMDTarget.h"
#include "tpx/Target/Common/LLVMBackendGuard.h"

#include "llvm/MC/MCAsmBackend.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCCodeEmitter.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCObjectFileInfo.h"
#include "llvm/MC/MCObjectWriter.h"
#include "llvm/MC/MCParser/MCAsmParser.h"
#include "llvm/MC/MCParser/MCTargetAsmParser.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

#include <cstdlib>

using namespace tpx;

/// ld.lld links one small object; a minute means it hangs.
static constexpr unsigned kLinkerTimeoutSeconds = 60;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Assembles `assembly` for `chip` into `object`; runs under
/// runLLVMGuarded. The assembler's diagnostics become the error.
static llvm::Error assembleObject(llvm::StringRef assembly,
                                  llvm::StringRef chip,
                                  llvm::SmallString<0> &object) {
  auto target = amd::getAMDGPUTarget(chip);
  if (!target)
    return target.takeError();
  llvm::Triple triple(amd::kAMDGPUTriple);
  llvm::MCTargetOptions options;
  std::unique_ptr<llvm::MCRegisterInfo> registers(
      (*target)->createMCRegInfo(triple));
  if (!registers)
    return makeError("the AMDGPU backend has no register info");
  std::unique_ptr<llvm::MCAsmInfo> asmInfo(
      (*target)->createMCAsmInfo(*registers, triple, options));
  std::unique_ptr<llvm::MCInstrInfo> instructions(
      (*target)->createMCInstrInfo());
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget(
      (*target)->createMCSubtargetInfo(triple, chip, /*Features=*/""));
  if (!asmInfo || !instructions || !subtarget)
    return makeError("the AMDGPU backend has no assembler for '" + chip + "'");

  std::string diagnostics;
  llvm::raw_string_ostream diagnosticStream(diagnostics);
  llvm::SourceMgr sources;
  sources.setDiagHandler(
      [](const llvm::SMDiagnostic &diagnostic, void *stream) {
        diagnostic.print(/*ProgName=*/nullptr,
                         *static_cast<llvm::raw_ostream *>(stream),
                         /*ShowColors=*/false);
      },
      &diagnosticStream);
  sources.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(assembly, "amdgcn",
                                       /*RequiresNullTerminator=*/false),
      llvm::SMLoc());
  llvm::MCContext context(triple, asmInfo.get(), registers.get(),
                          subtarget.get(), &sources, &options);
  // Errors the object writer reports (a bad fixup) would be printed to
  // stderr by the context's default handler.
  context.setDiagnosticHandler([&](const llvm::SMDiagnostic &diagnostic, bool,
                                   const llvm::SourceMgr &,
                                   std::vector<const llvm::MDNode *> &) {
    diagnostic.print(/*ProgName=*/nullptr, diagnosticStream,
                     /*ShowColors=*/false);
  });
  std::unique_ptr<llvm::MCObjectFileInfo> fileInfo(
      (*target)->createMCObjectFileInfo(context, /*PIC=*/true));
  context.setObjectFileInfo(fileInfo.get());

  llvm::raw_svector_ostream os(object);
  std::unique_ptr<llvm::MCAsmBackend> backend(
      (*target)->createMCAsmBackend(*subtarget, *registers, options));
  std::unique_ptr<llvm::MCCodeEmitter> encoder(
      (*target)->createMCCodeEmitter(*instructions, context));
  if (!backend || !encoder)
    return makeError("the AMDGPU backend cannot write objects");
  std::unique_ptr<llvm::MCObjectWriter> writer =
      backend->createObjectWriter(os);
  std::unique_ptr<llvm::MCStreamer> streamer((*target)->createMCObjectStreamer(
      triple, context, std::move(backend), std::move(writer),
      std::move(encoder), *subtarget));
  std::unique_ptr<llvm::MCAsmParser> parser(
      llvm::createMCAsmParser(sources, context, *streamer, *asmInfo));
  std::unique_ptr<llvm::MCTargetAsmParser> targetParser(
      (*target)->createMCAsmParser(*subtarget, *parser, *instructions,
                                   options));
  if (!targetParser)
    return makeError("the AMDGPU backend has no assembly parser");
  parser->setTargetParser(*targetParser);
  bool failed = parser->Run(/*NoInitialTextSection=*/false);
  if (failed || context.hadError())
    return makeError("the AMDGCN assembly does not assemble for " + chip +
                     ":\n" + llvm::StringRef(diagnostics).rtrim());
  return llvm::Error::success();
}

llvm::Expected<std::string> amd::assembleAMDGCN(llvm::StringRef assembly,
                                                llvm::StringRef chip) {
  llvm::SmallString<0> object;
  if (auto error = runLLVMGuarded(
          "assembling the AMDGCN assembly for " + chip.str(),
          [&] { return assembleObject(assembly, chip, object); }))
    return std::move(error);
  return std::string(object.str());
}

llvm::Expected<std::string> amd::findLdLld() {
  if (const char *path = std::getenv("TPX_LD_LLD"); path && *path) {
    // An explicit linker is the only one tried.
    if (llvm::sys::fs::can_execute(path))
      return std::string(path);
    return makeError(llvm::Twine("ld.lld not found: TPX_LD_LLD is '") + path +
                     "', which is not an executable file");
  }
  static constexpr const char *kDebianLld = "/usr/lib/llvm-22/bin/ld.lld";
  if (llvm::sys::fs::can_execute(kDebianLld))
    return std::string(kDebianLld);
  for (const char *name : {"ld.lld-22", "ld.lld"})
    if (auto onPath = llvm::sys::findProgramByName(name))
      return *onPath;
  const char *path = std::getenv("PATH");
  return makeError(llvm::Twine("ld.lld not found: searched '") + kDebianLld +
                   "' and ld.lld-22 / ld.lld on PATH (" + (path ? path : "") +
                   "); install Debian's lld-22 package or set TPX_LD_LLD to "
                   "the linker");
}

static llvm::Error writeFile(llvm::StringRef path, llvm::StringRef contents) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return makeError("cannot write '" + path + "': " + ec.message());
  os << contents;
  os.close();
  if (os.has_error()) {
    ec = os.error();
    os.clear_error(); // or the stream's destructor would end the process
    return makeError("cannot write '" + path + "': " + ec.message());
  }
  return llvm::Error::success();
}

llvm::Expected<std::string> amd::linkHsaco(llvm::StringRef object) {
  auto lld = findLdLld();
  if (!lld)
    return lld.takeError();
  llvm::SmallString<128> objectPath, hsacoPath, logPath;
  for (auto [path, suffix] :
       {std::pair{&objectPath, "o"}, std::pair{&hsacoPath, "hsaco"},
        std::pair{&logPath, "log"}})
    if (auto ec = llvm::sys::fs::createTemporaryFile("tpx", suffix, *path))
      return makeError("cannot create a temporary file: " + ec.message());
  llvm::FileRemover removeObject(objectPath), removeHsaco(hsacoPath),
      removeLog(logPath);
  if (auto error = writeFile(objectPath, object))
    return std::move(error);

  llvm::SmallVector<llvm::StringRef> argv = {*lld, "-shared", objectPath, "-o",
                                             hsacoPath};
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, logPath.str(),
                                                logPath.str()};
  std::string execError;
  int rc = llvm::sys::ExecuteAndWait(*lld, argv, /*Env=*/std::nullopt,
                                     redirects, kLinkerTimeoutSeconds,
                                     /*MemoryLimit=*/0, &execError);
  auto log = llvm::MemoryBuffer::getFile(logPath);
  llvm::StringRef logText = log ? (*log)->getBuffer().rtrim() : "";
  if (rc != 0)
    return makeError(llvm::Twine("ld.lld (") + *lld + " -shared) failed" +
                     (rc < 0 ? " to run: " + execError : std::string()) +
                     (logText.empty() ? "" : ":\n") + logText);
  auto hsaco = llvm::MemoryBuffer::getFile(hsacoPath, /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
  if (!hsaco || (*hsaco)->getBufferSize() == 0)
    return makeError("ld.lld produced no hsaco at '" + hsacoPath + "'");
  return (*hsaco)->getBuffer().str();
}

namespace {
/// The amdgcn stage's text -> hsaco, with the kernels' resources.
struct HsacoStageEmitter : public StageEmitter {
  llvm::Expected<std::string> emit(const EmitterInput &input) override {
    if (input.previousBytes.empty())
      return makeError("the hsaco stage needs AMDGCN assembly from the amdgcn "
                       "stage, which produced none");
    auto object = amd::assembleAMDGCN(input.previousBytes, input.target);
    if (!object)
      return object.takeError();
    auto hsaco = amd::linkHsaco(*object);
    if (!hsaco)
      return hsaco.takeError();
    auto resources = amd::readHsacoResources(*hsaco);
    if (!resources)
      return resources.takeError();
    *input.resources = std::move(*resources);
    return hsaco;
  }
};
} // namespace

std::unique_ptr<StageEmitter> tpx::amd::createHsacoStageEmitter() {
  return std::make_unique<HsacoStageEmitter>();
}
