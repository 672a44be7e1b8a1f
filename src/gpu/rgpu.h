/* gpu layer: device discovery and (later) the CUDA kernels of every mode. */
#ifndef RGPU_H
#define RGPU_H

#ifdef __cplusplus
extern "C" {
#endif

#include "rktlcs.h"

/* Number of usable CUDA devices; 0 when built without CUDA or none is present. */
int rgpu_device_count(void);
/* Name of device dev into buf (for logs); RK_ERES when unusable. */
rk_status_t rgpu_device_name(int dev, char *buf, int len);

#ifdef __cplusplus
}
#endif

#endif
