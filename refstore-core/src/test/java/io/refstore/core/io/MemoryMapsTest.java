package io.refstore.core.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which file systems files are mapped on: every one but those that keep a removed file
 * while it is mapped.
 */
class MemoryMapsTest {

	@Test
	void localFileSystemsMapAndNetworkAndFuseOnesDoNot() {
		for (String local : new String[] { "ext4", "xfs", "btrfs", "zfs", "tmpfs", "overlay", "f2fs" }) {
			assertThat(MemoryMaps.mappableType(local)).as(local).isTrue();
		}
		for (String hiding : new String[] { "nfs", "nfs4", "cifs", "smb3", "9p", "fuse", "fuse.bindfs", "fuse.sshfs",
				"fuseblk" }) {
			assertThat(MemoryMaps.mappableType(hiding)).as(hiding).isFalse();
		}
	}

	@Test
	void aFileOfTheTestsOwnFileSystemMaps(@TempDir Path dir) throws IOException {
		Path file = Files.writeString(dir.resolve("packed-refs"), "# pack-refs with: peeled fully-peeled sorted \n");
		String type = Files.getFileStore(dir).type();
		assertThat(MemoryMaps.mayMap(file)).as(type).isEqualTo(MemoryMaps.mappableType(type));
	}

}
