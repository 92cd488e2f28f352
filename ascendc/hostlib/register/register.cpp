// libregister: the registry of host tiling data classes
// (REGISTER_TILING_DATA_CLASS in register/tilingdata_base.h): operator type
// -> a constructor of its tiling data class, so that a host program (or a
// tiling framework) can create the class of an operator by name.
#include "register/tilingdata_base.h"

#include <map>
#include <mutex>
#include <string>

namespace optiling {
namespace {
std::mutex g_mu;
}

struct CTilingDataClassFactory::Impl_ {
    std::map<std::string, TilingDataConstructor> instances;
};

CTilingDataClassFactory &CTilingDataClassFactory::GetInstance() {
    static CTilingDataClassFactory *instance = [] {
        auto *f = new CTilingDataClassFactory();
        f->impl_ = new Impl_();
        return f;
    }();
    return *instance;
}

// RegisterTilingData keeps the first class registered for an operator type
// (a second registration of the same type is ignored, as static
// registrations in two translation units would otherwise race).
void CTilingDataClassFactory::RegisterTilingData(const char *opType, const TilingDataConstructor &constructor) {
    if (opType == nullptr || !constructor) {
        return;
    }
    std::lock_guard<std::mutex> lk(g_mu);
    impl_->instances.emplace(opType, constructor);
}

std::shared_ptr<TilingDef> CTilingDataClassFactory::CreateTilingDataInstance(const char *opType) {
    if (opType == nullptr) {
        return nullptr;
    }
    TilingDataConstructor ctor;
    {
        std::lock_guard<std::mutex> lk(g_mu);
        auto it = impl_->instances.find(opType);
        if (it == impl_->instances.end()) {
            return nullptr;
        }
        ctor = it->second;
    }
    return ctor();
}

}  // namespace optiling
