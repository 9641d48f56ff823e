package io.refstore.web.jobs;

import io.refstore.batch.api.JobStatus;

/**
 * One of the job history's counters: how many jobs the filters select in a status, and
 * the link that lists them.
 *
 * @param status the status, or {@code null} for all
 * @param words the status in words ({@code Running})
 * @param count how many jobs
 * @param href the list of them, the other filters kept
 * @param current whether the list shows them now
 */
record JobCounter(JobStatus status, String words, long count, String href, boolean current) {

}
