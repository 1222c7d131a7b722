package io.pacer.model;

import io.pacer.units.Units;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** The open reservations behave as a plain map in open order, expiring oldest first. */
class ReservationBookTest
{
    private record Key(long requestId, long campaignId)
    {
    }

    private record Open(long costNanos, long deadlineMillis)
    {
    }

    @Test
    void shouldExpireInDeadlineOrderPassingOverTakenReservations()
    {
        final ReservationBook book = new ReservationBook(4);
        book.open(1, 7, null, Units.currencyNanos(10), Units.epochMillis(100));
        book.open(2, 7, null, Units.currencyNanos(20), Units.epochMillis(110));
        book.open(3, 7, null, Units.currencyNanos(30), Units.epochMillis(120));

        assertThat(book.take(1, 7).costNanos()).isEqualTo(10);
        assertThat(book.pollExpired(Units.epochMillis(109))).isNull();
        assertThat(book.pollExpired(Units.epochMillis(120)).requestId()).isEqualTo(2);
        assertThat(book.pollExpired(Units.epochMillis(120)).requestId()).isEqualTo(3);
        assertThat(book.pollExpired(Units.epochMillis(1_000))).isNull();
        assertThat(book.openCount()).isZero();
    }

    @Test
    void shouldNoteLookupsToTouchOnlyOnceItsIndexHasOutgrownTheCache()
    {
        final ReservationBook book = new ReservationBook(4);
        book.open(1, 7, null, Units.currencyNanos(10), Units.epochMillis(100));
        assertThat(book.touches()).isFalse();
        book.note(1);
        assertThat(book.touchNoted()).isZero(); // nothing was noted: a small index stays in cache
        for (long id = 2; !book.touches(); id++)
        {
            book.open(id, 7, null, Units.currencyNanos(10), Units.epochMillis(100));
        }
        // it grew to 32,768 slots when more than 16,384 x 0.65 were open (the 0.65 load factor ReservationBook gives the map)
        assertThat(book.openCount()).isEqualTo(10_650);
        for (int i = 0; i < 3 * PacingShard.NOTED; i++)
        {
            book.note(1); // past the limit, noted no more
        }
        assertThat(book.touchNoted()).isEqualTo(7L * PacingShard.NOTED); // each read found campaign 7's reservation
        assertThat(book.touchNoted()).isZero();
        assertThat(book.take(1, 7).costNanos()).isEqualTo(10);
    }

    @Test
    void shouldTakeEachCampaignsReservationOfOneRequestApart()
    {
        final ReservationBook book = new ReservationBook(4);
        book.open(1, 7, null, Units.currencyNanos(10), Units.epochMillis(100));
        book.open(1, 8, null, Units.currencyNanos(20), Units.epochMillis(100));

        assertThat(book.take(1, 9)).isNull();
        assertThat(book.take(1, 8).costNanos()).isEqualTo(20);
        assertThat(book.take(1, 8)).isNull();
        assertThat(book.pollExpired(Units.epochMillis(100)).campaignId()).isEqualTo(7);
        assertThat(book.openCount()).isZero();
    }

    /**
     * More open at once than preallocated; most taken soon, a few left to expire; some requests for
     * several campaigns.
     */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void shouldAnswerAsAMapInOpenOrder(final long seed) throws IOException
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final ReservationBook book = new ReservationBook(2);
        final Map<Key, Open> expected = new LinkedHashMap<>();
        long now = 0;
        long nextRequest = 1;
        final List<Key> opened = new ArrayList<>();
        for (int step = 0; step < 40_000; step++)
        {
            final int action = random.nextInt(100);
            if (action < 45)
            {
                final long requestId = expected.isEmpty() || random.nextInt(10) != 0 ? nextRequest++ :
                    expected.keySet().iterator().next().requestId();
                final Key key = new Key(requestId, random.nextInt(1, 4));
                if (!expected.containsKey(key))
                {
                    final Open open = new Open(random.nextLong(1, 1_000), now + 300);
                    book.open(key.requestId(), key.campaignId(), null, Units.currencyNanos(open.costNanos()),
                        Units.epochMillis(open.deadlineMillis()));
                    expected.put(key, open);
                    opened.add(key);
                }
            }
            else if (action < 85)
            {
                final Key key = random.nextInt(10) < 8 && !opened.isEmpty() ?
                    opened.get(opened.size() - 1 - random.nextInt(Math.min(20, opened.size()))) :
                    new Key(random.nextLong(1, nextRequest + 1), random.nextInt(1, 4));
                final Open open = expected.remove(key);
                final Reservation taken = book.take(key.requestId(), key.campaignId());
                if (open == null)
                {
                    assertThat(taken).isNull();
                }
                else
                {
                    assertThat(taken.costNanos()).isEqualTo(open.costNanos());
                    book.recycle(taken);
                }
            }
            else
            {
                now += random.nextInt(0, 8);
                Reservation r;
                while ((r = book.pollExpired(Units.epochMillis(now))) != null)
                {
                    final Map.Entry<Key, Open> oldest = expected.entrySet().iterator().next();
                    assertThat(new Key(r.requestId(), r.campaignId())).isEqualTo(oldest.getKey());
                    assertThat(r.deadlineMillis()).isEqualTo(oldest.getValue().deadlineMillis())
                        .isLessThanOrEqualTo(now);
                    expected.remove(oldest.getKey());
                    book.recycle(r);
                }
                final long at = now;
                assertThat(expected.values()).allMatch(open -> open.deadlineMillis() > at);
            }
            assertThat(book.openCount()).isEqualTo(expected.size());
        }
        assertThat(written(book)).containsExactlyElementsOf(expected.keySet());
    }

    private static List<Key> written(final ReservationBook book) throws IOException
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        book.write(new DataOutputStream(bytes));
        final DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()));
        final List<Key> keys = new ArrayList<>();
        for (long i = in.readLong(); i > 0; i--)
        {
            keys.add(new Key(in.readLong(), in.readLong()));
            in.readLong();
            in.readLong();
        }
        return keys;
    }
}
