package io.pacer.model;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.time.DateTimeException;
import java.time.ZoneId;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Zones read from snapshots are the zones written, one instance per id. */
class ZoneIdsTest
{
    @Test
    void shouldReadBackEveryZoneWrittenAsOneInstancePerId() throws Exception
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final DataOutputStream out = new DataOutputStream(bytes);
        for (final String id : new String[] {"Europe/Paris", "Europe/Paris", "UTC", "+05:30", "Europe/Paris", "Zoné/Nowhere"})
        {
            out.writeUTF(id);
        }
        final DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()));
        final ZoneId paris = ZoneIds.read(in);
        assertThat(paris).isEqualTo(ZoneId.of("Europe/Paris"));
        assertThat(ZoneIds.read(in)).isSameAs(paris);
        assertThat(ZoneIds.read(in)).isSameAs(ZoneIds.UTC);
        assertThat(ZoneIds.read(in)).isEqualTo(ZoneId.of("+05:30"));
        assertThat(ZoneIds.read(in)).isSameAs(paris);
        assertThatThrownBy(() -> ZoneIds.read(in)).isInstanceOf(DateTimeException.class).hasMessageContaining("Zoné/Nowhere");
    }

    @Test
    void shouldGiveTheSameInstantForTheSameSecondAndNanosOrAnEqualInstant()
    {
        final InstantMemo memo = new InstantMemo();
        final java.time.Instant first = memo.of(1_767_225_600L, 5);
        assertThat(memo.of(1_767_225_600L, 5)).isSameAs(first).isEqualTo(java.time.Instant.ofEpochSecond(1_767_225_600L, 5));
        assertThat(memo.of(1_767_225_600L, 6)).isEqualTo(java.time.Instant.ofEpochSecond(1_767_225_600L, 6));
    }

    @Test
    void shouldParseTextOnceAndShareTheInstantOfEqualTexts()
    {
        final InstantMemo memo = new InstantMemo();
        final char[] text = "..2027-01-01T00:00:00Z..2027-01-01T00:00:00+00:00 not an instant".toCharArray();
        final java.time.Instant parsed = memo.parse(text, 2, 20);
        assertThat(parsed).isEqualTo(java.time.Instant.parse("2027-01-01T00:00:00Z"));
        assertThat(memo.parse("2027-01-01T00:00:00Z".toCharArray(), 0, 20)).isSameAs(parsed);
        assertThat(memo.parse(text, 24, 25)).isSameAs(parsed);
        assertThat(memo.parse(text, 50, 14)).isNull();
        assertThat(memo.parse(text, 2, 19)).isNull();
        assertThat(memo.parse(text, 2, 20)).isSameAs(parsed);
    }
}
