package io.refstore.core.cli.env;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

import io.refstore.core.ref.ObjectId;

/**
 * A large, unsynchronised output buffer for streaming a million refs: bytes are copied
 * straight from a cursor's buffers, and object ids are hex-encoded into a scratch array,
 * so printing a ref allocates nothing.
 *
 * <p>
 * Remembers whether writing to the underlying stream failed, so that a closed pipe
 * ({@code refstore
 * show-ref | head -1}) ends the command quietly, as git ends on {@code SIGPIPE}. Not
 * thread-safe.
 */
public final class OutBuffer {

	private static final int SIZE = 64 * 1024;

	private final OutputStream out;

	private final byte[] buf;

	private final byte[] hex = new byte[64];

	private int count;

	private boolean failed;

	public OutBuffer(OutputStream out) {
		this(out, SIZE);
	}

	/**
	 * A buffer of {@code size} bytes, smaller than the default for one short value (a
	 * rich format's plain atom), which would otherwise allocate 64 KiB per value.
	 */
	public OutBuffer(OutputStream out, int size) {
		this.out = out;
		this.buf = new byte[size];
	}

	/** Appends {@code b[off .. off + len)}. */
	public void write(byte[] b, int off, int len) throws IOException {
		if (len > this.buf.length - this.count) {
			drain();
			if (len > this.buf.length) {
				writeThrough(b, off, len);
				return;
			}
		}
		System.arraycopy(b, off, this.buf, this.count, len);
		this.count += len;
	}

	/** Appends one byte. */
	public void write(int b) throws IOException {
		if (this.count == this.buf.length) {
			drain();
		}
		this.buf[this.count++] = (byte) b;
	}

	/**
	 * Appends a string as UTF-8 (allocates: for messages and rare values, not per ref).
	 */
	public void write(String s) throws IOException {
		byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
		write(bytes, 0, bytes.length);
	}

	/**
	 * Appends the first {@code digits} lowercase hex digits of a raw object id.
	 * @param raw the id's raw bytes at offset 0
	 * @param rawLength the id's length in bytes
	 * @param digits how many hex digits to print, at most {@code 2 * rawLength}
	 */
	public void writeHex(byte[] raw, int rawLength, int digits) throws IOException {
		ObjectId.encodeHex(raw, 0, rawLength, this.hex, 0);
		write(this.hex, 0, digits);
	}

	/** Appends the first {@code digits} hex digits of {@code id}. */
	public void writeHex(ObjectId id, int digits) throws IOException {
		id.copyHexTo(this.hex, 0);
		write(this.hex, 0, digits);
	}

	/**
	 * Writes everything buffered and flushes the stream (for interactive answers such as
	 * {@code start: ok}).
	 */
	public void flush() throws IOException {
		drain();
		if (!this.failed) {
			try {
				this.out.flush();
			}
			catch (IOException ex) {
				this.failed = true;
				throw ex;
			}
		}
	}

	/** Whether writing to the stream failed (the reader went away). */
	public boolean failed() {
		return this.failed;
	}

	private void drain() throws IOException {
		if (this.count > 0) {
			int n = this.count;
			this.count = 0;
			writeThrough(this.buf, 0, n);
		}
	}

	private void writeThrough(byte[] b, int off, int len) throws IOException {
		if (this.failed) {
			throw new IOException("standard output is closed");
		}
		try {
			this.out.write(b, off, len);
		}
		catch (IOException ex) {
			this.failed = true;
			throw ex;
		}
	}

}
