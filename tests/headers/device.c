// SPDX-License-Identifier: GPL-2.0
/* <linux/device.h> alone: every allocation macro it defines. */
#include <linux/device.h>

static void hdr_release(struct device *dev, void *res)
{
}

const void *hdr_device(int i, struct device *dev, void *p, const char *s);
const void *hdr_device(int i, struct device *dev, void *p, const char *s)
{
	switch (i) {
	case 0: return __devres_alloc_node(hdr_release, 8, GFP_KERNEL, 0, "hdr");
	case 1: return devres_alloc(hdr_release, 8, GFP_KERNEL);
	case 2: return devres_alloc_node(hdr_release, 8, GFP_KERNEL, 0);
	case 3: return devm_kmalloc(dev, 8, GFP_KERNEL);
	case 4: return devm_krealloc(dev, p, 16, GFP_KERNEL);
	case 5: return devm_kasprintf(dev, GFP_KERNEL, "%s", s);
	case 6: return devm_kzalloc(dev, 8, GFP_KERNEL);
	case 7: return devm_kmalloc_array(dev, 2, 8, GFP_KERNEL);
	case 8: return devm_kcalloc(dev, 2, 8, GFP_KERNEL);
	case 9: return devm_kstrdup(dev, s, GFP_KERNEL);
	case 10: return devm_kstrdup_const(dev, s, GFP_KERNEL);
	case 11: return devm_kmemdup(dev, s, 8, GFP_KERNEL);
	case 12: return (void *)devm_get_free_pages(dev, GFP_KERNEL, 0);
	default: return NULL;
	}
}

__printf(2, 0) char *hdr_device_va(struct device *dev, const char *fmt,
				   va_list ap);
char *hdr_device_va(struct device *dev, const char *fmt, va_list ap)
{
	return devm_kvasprintf(dev, GFP_KERNEL, fmt, ap);
}
