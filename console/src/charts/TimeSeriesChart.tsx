import 'uplot/dist/uPlot.min.css';
import type { ChartData } from '@flightdeck/schemas';
import { Box, useComputedColorScheme } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import { buildChartOptions, CHART_THEMES, sameShape, toAlignedData } from './uplot-config';

/** Spec 2 and 9: a chart draws only once at least half of it is on screen. */
export const VISIBLE_THRESHOLD = 0.5;

export interface TimeSeriesChartProps {
  data: ChartData;
  /** Height of the plot in CSS pixels; the width follows the container. */
  height: number;
  offsetMinutes: number;
  period?: { start: number; end: number };
  legend?: boolean;
  /** Accessible name of the chart (its title). */
  label: string;
}

/**
 * One uPlot chart. The instance is created once, the first time the chart is at least 50% visible,
 * then fed with setData when the data changes (a refresh); it follows its container's width
 * (ResizeObserver). A new set of series or a colour-scheme change builds it again.
 */
export function TimeSeriesChart({
  data,
  height,
  offsetMinutes,
  period,
  legend,
  label,
}: TimeSeriesChartProps) {
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  const drawn = useRef<ChartData | null>(null);
  const periodRef = useRef(period);
  periodRef.current = period;
  const [visible, setVisible] = useState(false);
  const scheme = useComputedColorScheme('light');

  // Draw only once half of the chart is on screen; after that it stays drawn.
  useEffect(() => {
    const element = container.current;
    if (!element || visible) return;
    if (typeof IntersectionObserver === 'undefined') {
      setVisible(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting && entry.intersectionRatio >= VISIBLE_THRESHOLD)) {
          setVisible(true);
          observer.disconnect();
        }
      },
      { threshold: VISIBLE_THRESHOLD },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [visible]);

  // Create (or re-create when the series change) and feed with setData otherwise.
  useEffect(() => {
    const element = container.current;
    if (!element || !visible) return;
    const current = chart.current;
    if (current && drawn.current && sameShape(drawn.current, data)) {
      current.setData(toAlignedData(data));
      drawn.current = data;
      return;
    }
    current?.destroy();
    const options = buildChartOptions({
      data,
      width: element.clientWidth || 300,
      height,
      theme: CHART_THEMES[scheme],
      offsetMinutes,
      period: () => periodRef.current,
      legend,
    });
    chart.current = new uPlot(options, toAlignedData(data), element);
    drawn.current = data;
  }, [visible, data, height, scheme, offsetMinutes, legend]);

  // Destroy on unmount only.
  useEffect(
    () => () => {
      chart.current?.destroy();
      chart.current = null;
      drawn.current = null;
    },
    [],
  );

  // Follow the container's width.
  useEffect(() => {
    const element = container.current;
    if (!element || !visible || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      const width = Math.floor(element.clientWidth);
      const u = chart.current;
      if (u && width > 0 && width !== u.width) u.setSize({ width, height });
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [visible, height]);

  return (
    <Box
      ref={container}
      role="img"
      aria-label={label}
      data-testid="chart"
      data-drawn={visible || undefined}
      mih={height}
      style={{ width: '100%', minWidth: 0, overflow: 'hidden' }}
    />
  );
}
