#include "core/model/batch_rule.h"

namespace zp {

BatchRule deepspeed_batch_rule(std::optional<std::int64_t> train, std::optional<std::int64_t> micro, std::optional<std::int64_t> gas,
                               std::int64_t w) {
    BatchRule r;
    // _set_batch_related_parameters: Python's floor division, in DeepSpeed's order.
    if (train && micro && gas) {
    } else if (train && micro) {
        gas = *micro > 0 && w > 0 ? (*train / *micro) / w : 0;
    } else if (train && gas) {
        micro = *gas > 0 && w > 0 ? (*train / w) / *gas : 0;
    } else if (micro && gas) {
        train = *micro * *gas * w;
    } else if (train) {
        gas = 1;
        micro = w > 0 ? *train / w : 0;
    } else if (micro) {
        train = *micro * w;
        gas = 1;
    } else {
        r.field = "train_batch_size";
        r.error = "Either train_batch_size or train_micro_batch_size_per_gpu needs to be provided";
        return r;
    }
    r.train = *train;
    r.micro = *micro;
    r.gas = *gas;
    // _batch_assertion.
    if (r.train <= 0) {
        r.field = "train_batch_size";
        r.error = "Train batch size: " + std::to_string(r.train) + " has to be greater than 0";
    } else if (r.micro <= 0) {
        r.field = "train_micro_batch_size_per_gpu";
        r.error = "Micro batch size per gpu: " + std::to_string(r.micro) + " has to be greater than 0";
    } else if (r.gas <= 0) {
        r.field = "gradient_accumulation_steps";
        r.error = "Gradient accumulation steps: " + std::to_string(r.gas) + " has to be greater than 0";
    } else if (r.train != r.micro * r.gas * w) {
        r.field = "train_batch_size";
        r.error = "Check batch related parameters. train_batch_size is not equal to micro_batch_per_gpu * gradient_acc_step * world_size " +
                  std::to_string(r.train) + " != " + std::to_string(r.micro) + " * " + std::to_string(r.gas) + " * " + std::to_string(w);
    }
    return r;
}

}  // namespace zp
