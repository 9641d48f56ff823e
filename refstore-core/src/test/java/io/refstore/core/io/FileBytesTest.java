package io.refstore.core.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileBytesTest {

	@TempDir
	Path tmp;

	@Test
	void writesAndReadsAFileOfManySlicesWhole() throws IOException {
		byte[] content = new byte[5 * FileBytes.SLICE / 2 + 17];
		new Random(20261130).nextBytes(content);
		Path file = this.tmp.resolve("big");
		try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
			FileBytes.write(channel, content, content.length - 5);
		}
		byte[] expected = java.util.Arrays.copyOf(content, content.length - 5);
		assertThat(Files.readAllBytes(file)).isEqualTo(expected);
		assertThat(FileBytes.read(file)).isEqualTo(expected);
	}

	@Test
	void readsAnEmptyFileAndRefusesAMissingOne() throws IOException {
		Path empty = Files.createFile(this.tmp.resolve("empty"));
		assertThat(FileBytes.read(empty)).isEmpty();
		assertThatThrownBy(() -> FileBytes.read(this.tmp.resolve("missing"))).isInstanceOf(NoSuchFileException.class);
	}

	@Test
	void readsOnPastTheSizeTheFileHadWhenOpened() throws IOException {
		// the kernel reports a size of 0 for this file and serves its text all the same
		Path proc = Path.of("/proc/self/mountinfo");
		assertThat(Files.size(proc)).isZero();
		byte[] read = FileBytes.read(proc);
		assertThat(read.length).isGreaterThan(100);
		assertThat(new String(read, java.nio.charset.StandardCharsets.UTF_8)).contains(" / ");
	}

	@Test
	void aFreshThreadReadingABigFileKeepsNoDirectBufferAsBigAsTheFile() throws Exception {
		byte[] content = new byte[16 * FileBytes.SLICE];
		new Random(7).nextBytes(content);
		Path file = Files.write(this.tmp.resolve("packed-refs"), content);
		BufferPoolMXBean direct = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)
			.stream()
			.filter((pool) -> pool.getName().equals("direct"))
			.findFirst()
			.orElseThrow();
		AtomicLong grown = new AtomicLong();
		AtomicReference<Throwable> failed = new AtomicReference<>();
		Thread reader = new Thread(() -> {
			try {
				long before = direct.getMemoryUsed();
				assertThat(FileBytes.read(file)).isEqualTo(content);
				// the JDK keeps the temporary direct buffer of a read cached in the
				// thread that read
				grown.set(direct.getMemoryUsed() - before);
			}
			catch (Throwable ex) {
				failed.set(ex);
			}
		});
		reader.start();
		reader.join();
		assertThat(failed.get()).isNull();
		assertThat(grown.get()).as("direct memory kept by the reading thread").isLessThanOrEqualTo(FileBytes.SLICE);
	}

}
