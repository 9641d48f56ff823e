package io.refstore.core.ref;

/**
 * The object hash of a repository, chosen by {@code extensions.objectFormat}.
 */
public enum HashAlgorithm {

	/** SHA-1: 20 raw bytes, 40 hex digits, reftable hash id {@code sha1}. */
	SHA1("sha1", 20, 0x73686131),

	/** SHA-256: 32 raw bytes, 64 hex digits, reftable hash id {@code s256}. */
	SHA256("sha256", 32, 0x73323536);

	private final String configName;

	private final int rawLength;

	private final int formatId;

	HashAlgorithm(String configName, int rawLength, int formatId) {
		this.configName = configName;
		this.rawLength = rawLength;
		this.formatId = formatId;
	}

	/** The value of {@code extensions.objectFormat} naming this hash. */
	public String configName() {
		return this.configName;
	}

	/** Length of an object id in bytes. */
	public int rawLength() {
		return this.rawLength;
	}

	/** Length of an object id in hex digits. */
	public int hexLength() {
		return this.rawLength * 2;
	}

	/** The 4-byte hash id used in reftable version 2 headers. */
	public int formatId() {
		return this.formatId;
	}

	/** The all-zero id of this hash, meaning "does not exist". */
	public ObjectId zeroId() {
		return ObjectId.zero(this);
	}

	/**
	 * Returns the algorithm named by a value of {@code extensions.objectFormat}.
	 * @param name the configured value, compared case-insensitively
	 * @return the algorithm
	 * @throws IllegalArgumentException if the name is unknown
	 */
	public static HashAlgorithm fromConfigName(String name) {
		for (HashAlgorithm algorithm : values()) {
			if (algorithm.configName.equalsIgnoreCase(name)) {
				return algorithm;
			}
		}
		throw new IllegalArgumentException("unknown object format '" + name + "' (expected sha1 or sha256)");
	}

	/**
	 * Returns the algorithm whose reftable hash id is {@code id}.
	 * @param id the 4-byte id from a reftable v2 header
	 * @return the algorithm, or {@code null} if the id is unknown
	 */
	public static HashAlgorithm fromFormatId(int id) {
		for (HashAlgorithm algorithm : values()) {
			if (algorithm.formatId == id) {
				return algorithm;
			}
		}
		return null;
	}

}
