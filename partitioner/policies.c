/* skmd_part_decide(): checks the problem and runs the chosen policy. */
#include "part_policies.h"

#include <math.h>
#include <string.h>

static const char *const policy_names[] = {
    [SKMD_PART_POLICY_SKMD] = "skmd",
    [SKMD_PART_POLICY_EQUAL] = "equal",
    [SKMD_PART_POLICY_LINEAR] = "linear",
    [SKMD_PART_POLICY_PAPER] = "paper",
};

const char *skmd_part_policy_name(enum skmd_part_policy policy)
{
    if ((unsigned)policy < sizeof(policy_names) / sizeof(policy_names[0]))
        return policy_names[policy];
    return "unknown";
}

int skmd_part_policy_from_name(const char *name)
{
    for (size_t i = 0; name && i < sizeof(policy_names) / sizeof(policy_names[0]); i++)
        if (strcmp(name, policy_names[i]) == 0)
            return (int)i;
    return -1;
}

const char *skmd_part_strerror(int status)
{
    switch (status) {
    case SKMD_PART_OK:
        return "success";
    case SKMD_PART_EINVAL:
        return "invalid partitioning problem (device count, host device, or a negative or "
               "non-finite figure)";
    default:
        return "unknown partitioner status";
    }
}

static void decide_equal(const struct part_model *m, uint64_t total, uint64_t *count)
{
    double weight[SKMD_PART_MAX_DEVICES];
    int any = 0;
    for (int d = 0; d < m->ndev; d++)
        any |= m->usable[d];
    for (int d = 0; d < m->ndev; d++)
        weight[d] = (!any || m->usable[d]) ? 1.0 : 0.0;
    part_split_by_weight(total, m->ndev, weight, count);
}

static void decide_linear(const struct part_model *m, uint64_t total, uint64_t *count)
{
    double weight[SKMD_PART_MAX_DEVICES];
    double wsum = 0.0;
    for (int d = 0; d < m->ndev; d++)
        wsum += weight[d] = m->p->dev[d].peak_rate;
    if (!(wsum > 0.0)) {
        decide_equal(m, total, count);
        return;
    }
    part_split_by_weight(total, m->ndev, weight, count);
}

int skmd_part_decide(const struct skmd_part_problem *p, enum skmd_part_policy policy,
                     struct skmd_part_result *out)
{
    struct part_model m;
    if (!out)
        return SKMD_PART_EINVAL;
    memset(out, 0, sizeof(*out));
    int status = part_model_init(&m, p);
    if (status != SKMD_PART_OK)
        return status;
    uint64_t count[SKMD_PART_MAX_DEVICES] = {0};
    switch (policy) {
    case SKMD_PART_POLICY_SKMD:
    case SKMD_PART_POLICY_PAPER:
        if (p->total_wg == 0)
            break;
        return part_decide_skmd(&m, p->total_wg, policy == SKMD_PART_POLICY_PAPER, out);
    case SKMD_PART_POLICY_EQUAL:
        decide_equal(&m, p->total_wg, count);
        break;
    case SKMD_PART_POLICY_LINEAR:
        decide_linear(&m, p->total_wg, count);
        break;
    default:
        return SKMD_PART_EINVAL;
    }
    part_result_fill(&m, count, out);
    return SKMD_PART_OK;
}
