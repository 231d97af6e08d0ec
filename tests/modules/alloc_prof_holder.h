/* SPDX-License-Identifier: GPL-2.0 */
/* What alloc_prof_holder.c exports to the other test modules. */
#ifndef ALLOC_PROF_HOLDER_H
#define ALLOC_PROF_HOLDER_H

struct page;

void alloc_prof_holder_keep(struct page *page, unsigned int order);

#endif /* ALLOC_PROF_HOLDER_H */
