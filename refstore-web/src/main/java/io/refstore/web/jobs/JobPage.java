package io.refstore.web.jobs;

import java.util.Locale;

/**
 * Where a page of the job history is among all the jobs its filters select, as its pager
 * says it: {@code 51–100 of 11,111}, with the offsets of the first, previous, next and
 * last pages.
 *
 * @param total the jobs the filters select
 * @param offset how many come before this page
 * @param size the most a page shows
 * @param shown how many this page shows
 */
public record JobPage(long total, long offset, int size, int shown) {

	/** The position of this page's first job, from 1. */
	public long first() {
		return this.offset + 1;
	}

	/** The position of this page's last job. */
	public long last() {
		return this.offset + this.shown;
	}

	/** {@code 51–100 of 11,111}; empty for a page that shows nothing. */
	public String text() {
		if (this.shown == 0) {
			return "";
		}
		return String.format(Locale.ROOT, "%,d–%,d of %,d", first(), last(), this.total);
	}

	public boolean hasPrevious() {
		return this.offset > 0;
	}

	public boolean hasNext() {
		return this.offset + this.size < this.total;
	}

	public long previousOffset() {
		return Math.max(0, Math.min(this.offset - this.size, lastOffset()));
	}

	public long nextOffset() {
		return this.offset + this.size;
	}

	/** The offset of the last page: a whole number of pages. */
	public long lastOffset() {
		return (this.total == 0) ? 0 : ((this.total - 1) / this.size) * this.size;
	}

	/** Whether there is more than one page. */
	public boolean paged() {
		return this.total > this.size || this.offset > 0;
	}

}
