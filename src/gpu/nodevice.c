/* Built without CUDA: no device is ever usable. */
#include <stdio.h>
#include "gpu/rgpu.h"

int rgpu_device_count(void) { return 0; }

rk_status_t rgpu_device_name(int dev, char *buf, int len)
{
	(void)dev;
	snprintf(buf, (size_t)len, "none");
	rk_set_error("this rktlcs was built without CUDA");
	return RK_ERES;
}
