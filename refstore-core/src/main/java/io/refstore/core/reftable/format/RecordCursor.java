package io.refstore.core.reftable.format;

import java.io.Closeable;
import java.io.IOException;

/**
 * Iterates records of one type in key order. {@link #record()} returns a record owned by
 * the cursor and overwritten by the next call to {@link #next()}, so streaming a million
 * records allocates nothing per record; copy what must outlive the step.
 *
 * <p>
 * Not thread-safe. Closing releases decompressors held by the cursor; a closed cursor
 * must not be used.
 *
 * @param <R> the record type
 */
public interface RecordCursor<R> extends Closeable {

	/**
	 * Moves to the next record.
	 * @return {@code false} when there are no more records
	 * @throws io.refstore.core.ref.CorruptRefStoreException if the table is damaged
	 * @throws IOException if the table cannot be read
	 */
	boolean next() throws IOException;

	/** The current record (valid after {@link #next()} returned {@code true}). */
	R record();

	@Override
	void close();

}
